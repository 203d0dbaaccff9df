import { fsync } from 'node:fs';

interface Waiter {
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** How many group fsyncs run at once at most (libuv's default pool size). */
const maxSyncsInFlight = 4;

/**
 * The fsyncs of one open file: immediate ones, and group commit, where callers that arrive in the
 * same turn of the event loop share one fsync. A failed fsync rejects with what `failed` makes of it.
 */
export class GroupSync {
  readonly #fd: number;
  readonly #failed: (error: Error) => Error;
  #waiting: Waiter[] = [];
  #scheduled = false;
  #inFlight = 0;
  #count = 0;

  constructor(fd: number, failed: (error: Error) => Error) {
    this.#fd = fd;
    this.#failed = failed;
  }

  /** How many fsyncs were issued. */
  get count(): number {
    return this.#count;
  }

  /** One fsync, started now. */
  now(): Promise<void> {
    return new Promise((resolve, reject) => this.#sync((error) => (error ? reject(error) : resolve())));
  }

  /**
   * Group commit: resolves after an fsync that started after this call. Up to
   * {@link maxSyncsInFlight} groups are synced at once, since the kernel lets a later fsync ride on
   * a commit already under way.
   */
  grouped(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#waiting.push({ resolve, reject });
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#scheduled || this.#inFlight >= maxSyncsInFlight || this.#waiting.length === 0) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      const group = this.#waiting;
      this.#waiting = [];
      this.#inFlight++;
      // settled from the fsync's own callback: no promise between the thread pool and the waiters
      this.#sync((error) =>
        error ? this.#settle([...group, ...this.#waiting.splice(0)], error) : this.#settle(group),
      );
    });
  }

  #sync(done: (error?: Error) => void): void {
    this.#count++;
    fsync(this.#fd, (error) => (error ? done(this.#failed(error)) : done()));
  }

  #settle(group: Waiter[], error?: unknown): void {
    this.#inFlight--;
    for (const waiter of group) {
      if (error === undefined) waiter.resolve();
      else waiter.reject(error);
    }
    this.#schedule();
  }
}
