import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';

/** An upstream's request to its client, as the gateway passes it on. */
export interface UpstreamAsk {
  method: string;
  params?: Record<string, unknown>;
}

/** One upstream request waiting for the client's answer, under the key the gateway gave it. */
interface PendingAsk {
  key: string;
  request: UpstreamAsk;
  resolve: (answer: Record<string, unknown>) => void;
  reject: (error: Error) => void;
}

/** What a held call comes to next: its end, or the upstream's requests to put to the client. */
export type HeldStep<T> = { done: true; result: T } | { done: false; asks: Array<[string, UpstreamAsk]> };

/** How long asks that arrive one after another are gathered into one round, at most. */
const gatherMs = 100;
const gatherAtMostMs = 1000;

/**
 * One modern client's call (a `tools/call` or `prompts/get`) held by the gateway while its upstream
 * asks the client something: the call runs on, its upstream's requests are kept under keys of the
 * gateway's own, and each round of the client (the first request, then each retry with answers)
 * waits for the call's end or its next requests ({@link HeldCall.next}). Requests that arrive
 * together (one after another within 100 ms, at most a second) make one round.
 */
export class HeldCall<T = unknown> {
  /** The id the `requestState` names; random. */
  readonly id = randomUUID();
  /** Which round the client is in: 0 before any input_required, then 1, 2, … */
  round = 0;
  /** Cancels the call (expiry, a refused round, the client gone while it waited). */
  readonly abort = new AbortController();
  readonly #fresh: PendingAsk[] = [];
  readonly #waiting = new Map<string, PendingAsk>();
  #asked = 0;
  #ended: { result: T } | { error: unknown } | undefined;
  #wake: (() => void) | undefined;

  constructor(run: (signal: AbortSignal) => Promise<T>) {
    run(this.abort.signal).then(
      (result) => this.#end({ result }),
      (error: unknown) => this.#end({ error }),
    );
  }

  /** True once the call has ended (answered, failed or cancelled). */
  get ended(): boolean {
    return this.#ended !== undefined;
  }

  /** Passes one upstream request to the client: settles with the client's answer, from a later round. */
  ask(request: UpstreamAsk, signal: AbortSignal): Promise<Record<string, unknown>> {
    if (this.#ended !== undefined) return Promise.reject(new Error('the call has ended'));
    return new Promise((resolve, reject) => {
      const pending: PendingAsk = { key: `upstream.${++this.#asked}`, request, resolve, reject };
      this.#fresh.push(pending);
      signal.addEventListener(
        'abort',
        () => {
          this.#drop(pending);
          reject(new Error('the upstream withdrew its request'));
        },
        { once: true },
      );
      this.#wake?.();
    });
  }

  /**
   * Waits for the call's end or for the upstream's requests (gathered) that the client has not been
   * given, or has not answered: those are the next round's. An abort of `signal` (the client's
   * request cancelled) cancels the call.
   */
  async next(signal?: AbortSignal): Promise<HeldStep<T>> {
    const cancel = () => this.abort.abort(new Error('the client cancelled its request'));
    signal?.addEventListener('abort', cancel, { once: true });
    try {
      for (;;) {
        if (this.#ended !== undefined) return this.#outcome(this.#ended);
        if (this.#fresh.length > 0) {
          await this.#gather();
          if (this.#ended !== undefined) return this.#outcome(this.#ended);
          const asks = this.#fresh.splice(0);
          for (const ask of asks) this.#waiting.set(ask.key, ask);
          this.round += 1;
          return { done: false, asks: asks.map((ask) => [ask.key, ask.request]) };
        }
        await new Promise<void>((resolve) => {
          this.#wake = resolve;
        });
        this.#wake = undefined;
      }
    } finally {
      signal?.removeEventListener('abort', cancel);
    }
  }

  /**
   * Answers the upstream's requests of the last round with the client's `responses` (by key): each
   * answer an object. A request left unanswered is put to the client again in the next round.
   * Returns the keys it answered.
   */
  answer(responses: Record<string, unknown>): string[] {
    const answered: string[] = [];
    for (const [key, ask] of this.#waiting) {
      const response = responses[key];
      if (typeof response !== 'object' || response === null || Array.isArray(response)) continue;
      this.#waiting.delete(key);
      ask.resolve(response as Record<string, unknown>);
      answered.push(key);
    }
    // what the client left unanswered goes to it again, before anything the upstream asks next
    this.#fresh.unshift(...this.#waiting.values());
    this.#waiting.clear();
    return answered;
  }

  /** Refuses every request still pending with `error` and cancels the call. */
  cancel(error: Error): void {
    for (const ask of [...this.#fresh, ...this.#waiting.values()]) ask.reject(error);
    this.#fresh.length = 0;
    this.#waiting.clear();
    this.abort.abort(error);
  }

  async #gather(): Promise<void> {
    const started = Date.now();
    let seen = -1;
    while (
      this.#fresh.length !== seen &&
      this.#ended === undefined &&
      Date.now() - started < gatherAtMostMs
    ) {
      seen = this.#fresh.length;
      await sleep(gatherMs);
    }
  }

  #drop(pending: PendingAsk): void {
    const at = this.#fresh.indexOf(pending);
    if (at >= 0) this.#fresh.splice(at, 1);
    this.#waiting.delete(pending.key);
  }

  #end(ended: { result: T } | { error: unknown }): void {
    this.#ended = ended;
    const error = new Error('the call has ended');
    for (const ask of [...this.#fresh, ...this.#waiting.values()]) ask.reject(error);
    this.#fresh.length = 0;
    this.#waiting.clear();
    this.#wake?.();
  }

  #outcome(ended: { result: T } | { error: unknown }): HeldStep<T> {
    if ('error' in ended) throw ended.error;
    return { done: true, result: ended.result };
  }
}
