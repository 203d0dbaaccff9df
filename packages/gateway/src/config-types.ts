import type { Policy } from '@toolgate/core';
import type { McpServerConfig } from '@toolgate/mcp-client';
import type { ClientMatch, OAuthSettings } from './auth/oauth-schema.js';
import type { FleetSettings } from './fleet/fleet-config.js';
import type { RateLimit } from './limits/rate-limiter.js';
import type { GatewayTelemetry } from './telemetry/telemetry-config.js';

/** One client of the gateway: who it is, what it may call (glob patterns of tool names), its bearer token over HTTP. */
export interface GatewayClient {
  readonly name: string;
  /** Glob patterns of the gateway's tool names (with prefixes), e.g. `fs__read_*`. */
  readonly tools: readonly string[];
  /** The environment variable holding its bearer token, when it may connect over HTTP. */
  readonly tokenEnv?: string;
  /** Glob patterns of the gateway's prompt names (with prefixes), e.g. `ev__simple-prompt`. None by default. */
  readonly prompts: readonly string[];
  /** `"<prefix>:<uri glob>"` patterns of the resources it may list and read. None by default. */
  readonly resources: readonly string[];
  /** Which of an upstream's requests may reach this client's user during its calls. */
  readonly asks: Readonly<Record<'elicitation' | 'sampling' | 'roots', 'allow' | 'deny'>>;
  /** With `oauth`: which access tokens are this client (`match:`). */
  readonly match?: ClientMatch;
  /** Its calls a second and calls at once (`rate_limit:`). */
  readonly rateLimit?: RateLimit;
}

/** A checked gateway configuration: variables expanded, relative paths resolved against the file's directory. */
export interface GatewayConfig {
  /** The file it was read from (for messages). */
  readonly source: string;
  readonly servers: readonly McpServerConfig[];
  readonly clients: ReadonlyMap<string, GatewayClient>;
  /** The client a stdio connection is, if the file names one. */
  readonly stdioClient?: string;
  readonly http: {
    host?: string;
    port?: number;
    path?: string;
    allowedHosts?: string[];
    allowedOrigins?: string[];
    /** How many HTTP sessions one client may hold at once (`http.max_sessions_per_client`). */
    maxSessionsPerClient?: number;
    /** How long an HTTP session may sit idle, in ms (`http.session_idle_ms`). */
    sessionIdleMs?: number;
  };
  readonly policy: Policy;
  /** The policy file an approver's `always` answers are written to (the `policy:` layer with `remember: true`). */
  readonly rememberFile?: string;
  /** The OAuth 2.1 resource server's settings (`oauth:`), when clients may bring access tokens. */
  readonly oauth?: OAuthSettings;
  /**
   * The ledger: a file, absolute; a directory (ending with `/`) where each gateway process writes a
   * chain file of its own; or a `postgres://USER@HOST:PORT/DATABASE?ledger=NAME` URL (which may
   * hold a password: show it through `ledgerLabel`, never as it is).
   */
  readonly ledger: string;
  readonly durability: 'always' | 'batch' | 'none';
  /** Tool name → the fingerprint of the changed definition an operator approved. */
  readonly approve: Readonly<Record<string, string>>;
  /** With a lock file: whether a tool no review names is withheld until approved (default) or allowed. */
  readonly newTools: 'withhold' | 'allow';
  /** The time budget of one call, in ms. */
  readonly timeoutMs?: number;
  /** How long a modern client's held call waits for its answer, in ms (`held_call_ms`; default 600000). */
  readonly heldCallMs?: number;
  /** Where a span per call is exported (`telemetry:`); the OTLP environment variables apply without it. */
  readonly telemetry?: GatewayTelemetry;
  /** With `fleet:`: the database and name of the fleet this instance shares approvals and reviews with. */
  readonly fleet?: FleetSettings;
}
