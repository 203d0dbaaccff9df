/**
 * Runs the gate calls of one tool set one at a time, in the order they were asked for. The AI SDK
 * starts every call of a step at once; through this queue a tool that is not parallel-safe never
 * overlaps another, and the records land in the order the SDK handed the calls over (the model's).
 */
export class CallQueue {
  #tail: Promise<unknown> = Promise.resolve();

  /** Runs `call` once every call queued before it has settled. */
  run<T>(call: () => Promise<T>): Promise<T> {
    const next = this.#tail.then(call, call);
    this.#tail = next.catch(() => undefined);
    return next;
  }

  /** Settles when every call queued so far has settled. */
  idle(): Promise<void> {
    return this.#tail.then(() => undefined);
  }
}
