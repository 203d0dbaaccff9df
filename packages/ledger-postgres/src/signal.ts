/** A wake-up that counts how often it was raised, so a waiter can tell it missed none. */
export class Signal {
  #generation = 0;
  #listeners = new Set<() => void>();

  /** How many times it was raised. */
  get generation(): number {
    return this.#generation;
  }

  raise(): void {
    this.#generation++;
    for (const listener of [...this.#listeners]) listener();
  }

  listen(listener: () => void): void {
    this.#listeners.add(listener);
  }

  unlisten(listener: () => void): void {
    this.#listeners.delete(listener);
  }

  /** Resolves at the next raise, after `ms`, or when the signal aborts, whichever comes first. */
  wait(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      const done = () => {
        clearTimeout(timer);
        this.#listeners.delete(done);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.#listeners.add(done);
      signal?.addEventListener('abort', done, { once: true });
    });
  }
}
