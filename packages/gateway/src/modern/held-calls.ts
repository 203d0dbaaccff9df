import { randomUUID } from 'node:crypto';
import type { Gateway } from '../gateway.js';
import type { ApprovalState } from './approval-state.js';
import { HeldCall, type UpstreamAsk } from './held-call.js';

/** How long a held call waits for the client's answer by default: the requestState's life, 10 minutes. */
export const defaultHeldCallMs = 600_000;

/** A held call and what binds it: its client, who the token named, the call's digest. */
interface Entry {
  held: HeldCall<unknown>;
  client: string;
  /** Who the client's token named ('' without one). */
  owner: string;
  /** `callDigest` of the method's target and arguments. */
  call: string;
  timer: NodeJS.Timeout | undefined;
  /** Ends its registration in `gateway.callsInFlight`. */
  endInFlight: () => void;
}

/** What {@link HeldCalls.start} takes. */
export interface HeldCallStart<T> {
  client: string;
  owner: string;
  call: string;
  /** The upstream the call goes to (whose requests are passed to this client), when known. */
  server: string | undefined;
  run: (signal: AbortSignal) => Promise<T>;
}

/** How many ended held calls are remembered (to say why a late retry finds none). */
const goneLimit = 10_000;

/**
 * The calls of 2026-07-28 clients this gateway process holds while their upstreams ask the client
 * something (see {@link HeldCall}): registered in `gateway.callsInFlight` as the call under way on
 * their upstream, so its requests reach them; each expires `gateway.config.heldCallMs` after its
 * last round (default {@link defaultHeldCallMs}), then it is cancelled upstream and its client's
 * retry told so. A held call lives in this process's memory only: `instance` names it in every
 * `requestState`, so another instance refuses the retry rather than start the call afresh.
 */
export class HeldCalls {
  /** This process's id, put in every held call's `requestState`. */
  readonly instance = randomUUID();
  readonly #gateway: Gateway;
  readonly #calls = new Map<string, Entry>();
  readonly #gone = new Map<string, string>();

  constructor(gateway: Gateway) {
    this.#gateway = gateway;
  }

  /** How long a held call waits for its client's next round, in ms. */
  get holdMs(): number {
    return this.#gateway.config.heldCallMs ?? defaultHeldCallMs;
  }

  /** Starts `start.run` as a held call: upstream requests on its server during it are kept for the client. */
  start<T>(start: HeldCallStart<T>): HeldCall<T> {
    const { server } = start;
    const inFlight = {
      client: start.client,
      // every kind is passed to the held call: the client's declared capabilities are checked per
      // round (an undeclared one answers -32021), the config's allow/deny by passRequest
      capabilities: () => ({ elicitation: {}, sampling: {}, roots: {} }),
      ask: (request: UpstreamAsk, signal: AbortSignal) => held.ask(request, signal),
    };
    const calls = this.#gateway.callsInFlight;
    const endInFlight = server === undefined ? () => undefined : calls.begin(server, inFlight);
    const held: HeldCall<T> = new HeldCall<T>((signal) =>
      server === undefined ? start.run(signal) : calls.within(server, inFlight, () => start.run(signal)),
    );
    this.#calls.set(held.id, {
      held: held as HeldCall<unknown>,
      client: start.client,
      owner: start.owner,
      call: start.call,
      timer: undefined,
      endInFlight,
    });
    return held;
  }

  /** Restarts the held call's clock: it waits `holdMs` more for its client's next round. */
  hold(held: HeldCall<unknown>): void {
    const entry = this.#calls.get(held.id);
    if (entry === undefined) return;
    clearTimeout(entry.timer);
    const holdMs = this.holdMs;
    entry.timer = setTimeout(() => {
      const why = `it waited ${holdMs} ms for the client's answer (held_call_ms in ${this.#gateway.config.source}) and was cancelled`;
      entry.held.cancel(new Error(`the client did not answer within ${holdMs} ms`));
      this.release(held, why);
    }, holdMs);
    entry.timer.unref();
  }

  /** Forgets a held call (ended, expired or refused), remembering why for a late retry. */
  release(held: HeldCall<unknown>, why: string): void {
    const entry = this.#calls.get(held.id);
    if (entry === undefined) return;
    clearTimeout(entry.timer);
    entry.endInFlight();
    this.#calls.delete(held.id);
    if (this.#gone.size >= goneLimit) this.#gone.delete(this.#gone.keys().next().value as string);
    this.#gone.set(held.id, why);
  }

  /**
   * The held call a verified `state` names for this client and call, or why there is none to
   * resume: held by another instance, no longer held (with why), another client's or another
   * call's, or a state of an earlier round. Never a reason to start the call afresh.
   */
  find(
    state: ApprovalState & { held: NonNullable<ApprovalState['held']> },
    bound: { client: string; owner: string; call: string },
  ): HeldCall<unknown> | { refused: string } {
    const { id, round, instance } = state.held;
    if (instance !== this.instance) return { refused: this.#elsewhere() };
    const entry = this.#calls.get(id);
    if (entry === undefined) {
      const why = this.#gone.get(id) ?? 'this instance does not know it (it restarted since)';
      return {
        refused: `the call this requestState belongs to is no longer held: ${why}; call again without requestState`,
      };
    }
    if (
      entry.client !== bound.client ||
      entry.owner !== bound.owner ||
      entry.call !== bound.call ||
      state.call !== entry.call
    ) {
      return { refused: 'this requestState belongs to another call; call again without requestState' };
    }
    if (round !== entry.held.round) {
      return {
        refused: `this requestState is of round ${round} of its call, which is at round ${entry.held.round}: send the requestState of the latest round`,
      };
    }
    return entry.held;
  }

  #elsewhere(): string {
    const { fleet, source } = this.#gateway.config;
    const where =
      fleet === undefined
        ? 'another gateway process (or this one before a restart)'
        : `another instance of the fleet "${fleet.name}" (fleet: in ${source}): the instances share approvals and reviews, not held calls`;
    return (
      `the call this requestState belongs to is held by ${where}. Send every retry of one call to the ` +
      'instance that answered it (route by client, sticky), or call again without requestState'
    );
  }
}
