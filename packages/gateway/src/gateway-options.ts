import type { CallObserver, CallOptions } from '@toolgate/core';
import type { CallerIdentity } from './auth/index.js';

/** What a {@link Gateway} is started with besides its configuration. */
export interface GatewayOptions {
  /** The run id of this gateway's ledger events. Default `gateway-<uuid>`. */
  runId?: string;
  /** Makes call ids. Default `crypto.randomUUID`. */
  callIds?: () => string;
  /** Told what an operator should know: tool changes, reloads, refused reloads. Default: stderr. */
  log?: (line: string) => void;
  /**
   * Watches every call of the gateway's gate (`@toolgate/otel`'s `otelObserver`): the client is
   * the call's agent, each span carries the ledger's run id and seq.
   */
  observer?: CallObserver;
}

/** A call's options at the gateway: the gate's, and who the client's access token named. */
export interface GatewayCallOptions extends CallOptions {
  /** The caller an access token named; recorded with the call (`caller.identified`). */
  identity?: CallerIdentity;
}
