import { AsyncLocalStorage } from 'node:async_hooks';

/** One client's call under way on an upstream, and how to ask that client something on it. */
export interface CallInFlight {
  readonly client: string;
  /** What the client declared it can answer (`elicitation`, `sampling`, `roots`). */
  readonly capabilities: () => Record<string, unknown> | undefined;
  /** Sends a request to the client as part of the call (over HTTP, on the call's own stream). */
  readonly ask: (
    request: { method: string; params?: Record<string, unknown> },
    signal: AbortSignal,
  ) => Promise<Record<string, unknown>>;
}

/**
 * The calls under way, by upstream server: an upstream's request to its client belongs to the call
 * whose own response stream it came on — the request arrives in that call's async context (see
 * {@link CallsInFlight.within}; MCPResolver opens sessions outside any call's context, so what comes
 * on a session's own streams does not) — else to the one call it has in progress. With none, or
 * several and none whose stream carried the request, there is nobody to ask.
 */
export class CallsInFlight {
  readonly #byServer = new Map<string, Set<CallInFlight>>();
  readonly #current = new AsyncLocalStorage<{ server: string; call: CallInFlight }>();

  /** Runs `run` (the call's way to `server`) in the call's async context. */
  within<T>(server: string, call: CallInFlight, run: () => T): T {
    return this.#current.run({ server, call }, run);
  }

  /** Notes a call on `server` until the returned function is called. */
  begin(server: string, call: CallInFlight): () => void {
    const calls = this.#byServer.get(server) ?? new Set();
    calls.add(call);
    this.#byServer.set(server, calls);
    return () => {
      calls.delete(call);
      if (calls.size === 0) this.#byServer.delete(server);
    };
  }

  /** The one call under way on `server`, or why there is none to ask. */
  owner(server: string): CallInFlight | { none: string } {
    const current = this.#current.getStore();
    // the request came on this call's own stream, and the call is still under way
    if (current?.server === server && this.#byServer.get(server)?.has(current.call)) return current.call;
    const calls = [...(this.#byServer.get(server) ?? [])];
    if (calls.length === 1) return calls[0]!;
    if (calls.length === 0) return { none: 'no client call is in progress on it' };
    const clients = [...new Set(calls.map((call) => `"${call.client}"`))].join(', ');
    return {
      none: `${calls.length} client calls are in progress on it (${clients}), so the gateway cannot tell whose call asked`,
    };
  }
}
