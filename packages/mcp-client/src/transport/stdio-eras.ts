import type { PassThrough } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { messageOf } from '@toolgate/core';
import type { McpProtocol } from '../server-config.js';
import {
  type DiscoverVerdict,
  describeDiscoverAnswer,
  discoverRequest,
  discoverVerdict,
  initializeResult,
  type JsonRpcAnswer,
  type JsonRpcRequest,
  type ModernClient,
  ModernEraRefused,
  withEnvelope,
} from './modern-era.js';
import { type ProcessGroupStdioOptions, ProcessGroupStdioTransport } from './stdio-transport.js';

/** How {@link StdioErasTransport} starts a server and picks the era it speaks with it. */
export interface StdioErasOptions {
  /** How the server is started: for the session, and for the probe of `'auto'`. */
  process: ProcessGroupStdioOptions;
  protocol: Exclude<McpProtocol, '2025-11-25'>;
  client: ModernClient;
  /** How long the server has to answer `server/discover` (its config's `timeoutMs`). */
  probeTimeoutMs: number;
}

/**
 * A stdio server in its own process group (a {@link ProcessGroupStdioTransport}) spoken to in MCP
 * 2026-07-28 when it offers it, under the SDK's 1.x client, as `eraNegotiatingFetch` does over HTTP:
 *
 * - `'auto'` asks `server/discover` of a short-lived sibling started the same way (the 2.x SDK's
 *   `versionNegotiation: { mode: 'auto' }` over stdio does the same: a 2025-11-25 server may take a
 *   request before `initialize` for an error and end, and the session's own process must not be
 *   spent on the question). The sibling is stopped before the session's process starts; an
 *   answer offering 2026-07-28 makes the session modern, anything else (an error, its end, no
 *   answer within `probeTimeoutMs`, a sibling that cannot start) keeps 2025-11-25.
 * - `'2026-07-28'` asks the session's own process (a server that does not offer it is not spoken
 *   to in any other era), and fails the start with {@link ModernEraRefused} when it does not offer it.
 *
 * In the modern era the 1.x client's `initialize` is answered here from the discover result,
 * `notifications/initialized` is not sent, every request carries the `_meta` envelope, a request
 * from the server (the era has none) is dropped, and the lists the server says change are
 * subscribed to (`subscriptions/listen`), so `list_changed` reaches the client as in 2025-11-25.
 * Otherwise every message passes as it is.
 */
export class StdioErasTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** The session's server process. */
  readonly process: ProcessGroupStdioTransport;
  readonly #options: StdioErasOptions;
  /** The discover result once the server is spoken to in 2026-07-28; undefined in 2025-11-25. */
  #discovered: Record<string, unknown> | undefined;
  /** The probe waiting on the session's own process, which reads what it sends meanwhile. */
  #probe: DiscoverProbe | undefined;
  #sibling: ProcessGroupStdioTransport | undefined;
  #closed = false;

  constructor(options: StdioErasOptions) {
    this.#options = options;
    this.process = new ProcessGroupStdioTransport(options.process);
    this.process.onerror = (error) => this.onerror?.(error);
    this.process.onclose = () => {
      this.#probe?.end('it exited without answering server/discover');
      this.onclose?.();
    };
    this.process.onmessage = (message) => this.#receive(message);
  }

  /** The session's server's stderr. */
  get stderr(): PassThrough {
    return this.process.stderr;
  }

  /** The session's server's pid once started. */
  get pid(): number | undefined {
    return this.process.pid;
  }

  async start(): Promise<void> {
    if (this.#options.protocol === 'auto') {
      const verdict = await this.#probeSibling();
      if (this.#closed) throw closedDuringProbe();
      await this.process.start();
      if (verdict.kind === 'modern') await this.#speakModern(verdict.discovered);
      return;
    }
    await this.process.start();
    const probe = new DiscoverProbe();
    this.#probe = probe;
    let outcome: ProbeOutcome;
    try {
      outcome = await probe.run((message) => this.process.send(message), this.#options);
    } finally {
      this.#probe = undefined;
    }
    if (this.#closed) throw closedDuringProbe();
    if (outcome.verdict.kind !== 'modern') throw new ModernEraRefused(outcome.answered);
    await this.#speakModern(outcome.verdict.discovered);
  }

  /**
   * From now on the modern era: and where the server says its lists change, one
   * `subscriptions/listen` for those changes (the era sends them only on a subscription), whose
   * acknowledgement and end are read here; the change notifications go on to the client.
   */
  async #speakModern(discovered: Record<string, unknown>): Promise<void> {
    this.#discovered = discovered;
    const filter = listenFilter(discovered.capabilities);
    if (filter === undefined) return;
    const listen: JsonRpcRequest = {
      jsonrpc: '2.0',
      id: listenId,
      method: 'subscriptions/listen',
      params: { notifications: filter },
    };
    await this.process.send(withEnvelope(listen, this.#options.client) as JSONRPCMessage);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const discovered = this.#discovered;
    if (discovered === undefined || !('method' in message)) return this.process.send(message);
    if (message.method === 'initialize' && 'id' in message) {
      const answer = { jsonrpc: '2.0' as const, id: message.id, result: initializeResult(discovered) };
      queueMicrotask(() => this.onmessage?.(answer));
      return;
    }
    if (message.method === 'notifications/initialized') return;
    const enveloped = withEnvelope(message as JsonRpcRequest, this.#options.client);
    return this.process.send(enveloped as JSONRPCMessage);
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#sibling?.dispose();
    await this.process.close();
  }

  #receive(message: JSONRPCMessage): void {
    if (this.#probe !== undefined) {
      this.#probe.receive(message); // nothing else is read before the era is known
      return;
    }
    if (this.#discovered !== undefined) {
      if ('method' in message) {
        if ('id' in message) return; // a request: the era has none from server to client
        if (message.method === 'notifications/subscriptions/acknowledged') return;
      } else if ('id' in message && message.id === listenId) return; // the subscription's end
    }
    this.onmessage?.(message);
  }

  /** The verdict of a sibling's answer to `server/discover`; the sibling is stopped before this settles. */
  async #probeSibling(): Promise<DiscoverVerdict> {
    const sibling = new ProcessGroupStdioTransport(this.#options.process);
    this.#sibling = sibling;
    sibling.stderr.resume(); // not kept: the sibling is no session
    const probe = new DiscoverProbe();
    sibling.onmessage = (message) => probe.receive(message);
    sibling.onclose = () => probe.end('it exited without answering server/discover');
    sibling.onerror = () => undefined; // a line that is not JSON-RPC: read on, as a legacy server's
    try {
      await sibling.start();
      if (this.#closed) return { kind: 'legacy' };
      return (await probe.run((message) => sibling.send(message), this.#options)).verdict;
    } catch {
      return { kind: 'legacy' }; // it cannot start: the session's own start meets the same fault and reports it
    } finally {
      this.#sibling = undefined;
      await sibling.dispose();
    }
  }
}

/** The id of the session's `subscriptions/listen` (a string: never one of the 1.x client's). */
const listenId = 'toolgate-listen';

/** The list changes a discovered server says it notifies, as a `subscriptions/listen` filter; undefined for none. */
function listenFilter(capabilities: unknown): Record<string, true> | undefined {
  const said = (capabilities ?? {}) as Record<string, { listChanged?: unknown } | undefined>;
  const filter: Record<string, true> = {};
  if (said.tools?.listChanged === true) filter.toolsListChanged = true;
  if (said.prompts?.listChanged === true) filter.promptsListChanged = true;
  if (said.resources?.listChanged === true) filter.resourcesListChanged = true;
  return Object.keys(filter).length > 0 ? filter : undefined;
}

function closedDuringProbe(): Error {
  return new Error('it was closed during the server/discover probe');
}

/** What a probe came to: its verdict, and the server's answer as a {@link ModernEraRefused} tells it. */
interface ProbeOutcome {
  verdict: DiscoverVerdict;
  answered: string;
}

/**
 * One `server/discover` exchange over stdio: the probe is sent (once more when refused naming
 * 2026-07-28) and settles with the server's answer, its end, or no answer within the timeout.
 * Probe ids are strings, so they never meet the 1.x client's numeric ids.
 */
class DiscoverProbe {
  #pending: { id: string; settle: (answer: JsonRpcAnswer | string) => void } | undefined;
  #count = 0;

  /** Reads one message from the server: the answer to the probe settles it; the rest is dropped. */
  receive(message: JSONRPCMessage): void {
    const pending = this.#pending;
    if (pending !== undefined && !('method' in message) && 'id' in message && message.id === pending.id)
      pending.settle(message as JsonRpcAnswer);
  }

  /** The server went away: the probe waiting settles with why. */
  end(why: string): void {
    this.#pending?.settle(why);
  }

  async run(
    send: (message: JSONRPCMessage) => Promise<void>,
    { client, probeTimeoutMs }: Pick<StdioErasOptions, 'client' | 'probeTimeoutMs'>,
  ): Promise<ProbeOutcome> {
    let answered = '';
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const answer = await this.#exchange(send, client, probeTimeoutMs);
      if (typeof answer === 'string') return { verdict: { kind: 'legacy' }, answered: answer };
      answered = describeDiscoverAnswer(answer);
      const verdict = discoverVerdict(answer);
      if (verdict.kind !== 'again') return { verdict, answered };
    }
    return { verdict: { kind: 'legacy' }, answered };
  }

  #exchange(
    send: (message: JSONRPCMessage) => Promise<void>,
    client: ModernClient,
    timeoutMs: number,
  ): Promise<JsonRpcAnswer | string> {
    this.#count += 1;
    const id = `toolgate-discover-${this.#count}`;
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const settle = (answer: JsonRpcAnswer | string) => {
        if (this.#pending?.id !== id) return;
        this.#pending = undefined;
        clearTimeout(timer);
        resolve(answer);
      };
      this.#pending = { id, settle };
      timer = setTimeout(() => settle(`no answer to server/discover within ${timeoutMs} ms`), timeoutMs);
      send(discoverRequest(id, client) as JSONRPCMessage).catch((error: unknown) =>
        settle(`server/discover could not be sent: ${messageOf(error)}`),
      );
    });
  }
}

/** The server process under a stdio session's transport, or undefined for HTTP. */
export function serverProcess(transport: Transport | undefined): ProcessGroupStdioTransport | undefined {
  if (transport instanceof ProcessGroupStdioTransport) return transport;
  return transport instanceof StdioErasTransport ? transport.process : undefined;
}
