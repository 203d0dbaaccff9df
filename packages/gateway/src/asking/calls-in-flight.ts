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
  /**
   * The call a context belongs to, by a number: what outlives a call in its context (a timer or a
   * pooled socket first made during it) keeps this small record alive, never the call and its session.
   */
  readonly #current = new AsyncLocalStorage<{ server: string; id: number }>();
  readonly #byId = new Map<number, CallInFlight>();
  #lastId = 0;

  /** Runs `run` (the call's way to `server`) in the call's async context, until what it returns settles. */
  within<T>(server: string, call: CallInFlight, run: () => Promise<T>): Promise<T> {
    const id = ++this.#lastId;
    this.#byId.set(id, call);
    return this.#current.run({ server, id }, run).finally(() => this.#byId.delete(id));
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
    const own = current?.server === server ? this.#byId.get(current.id) : undefined;
    // the request came on this call's own stream, and the call is still under way
    if (own !== undefined && this.#byServer.get(server)?.has(own)) return own;
    const calls = [...(this.#byServer.get(server) ?? [])];
    if (calls.length === 1) return calls[0]!;
    if (calls.length === 0) return { none: 'no client call is in progress on it' };
    const clients = [...new Set(calls.map((call) => `"${call.client}"`))].join(', ');
    return {
      none: `${calls.length} client calls are in progress on it (${clients}), so the gateway cannot tell whose call asked`,
    };
  }
}
