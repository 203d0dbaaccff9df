/**
 * Runs a refresh (a server's `tools/list`) at most once at a time, with at most one more queued
 * behind it, however many times it is asked: a flood of `list_changed` notifications costs at
 * most two listings.
 */
export class RefreshScheduler {
  readonly #run: () => Promise<void>;
  #requested = 0;
  #completed = 0;
  #running: Promise<void> | undefined;
  #queued = false;

  constructor(run: () => Promise<void>) {
    this.#run = run;
  }

  /** True while a refresh runs or waits. */
  get pending(): boolean {
    return this.#running !== undefined;
  }

  /** Asks for a refresh: starts one, or queues one behind the one running (once). */
  request(): void {
    this.#requested += 1;
    if (this.#running) {
      this.#queued = true;
      return;
    }
    this.#start();
  }

  /**
   * Settles once every refresh asked for before this call has run (or failed); refreshes asked for
   * later are not waited for, so a flood cannot hold a caller forever.
   */
  async settled(): Promise<void> {
    const target = this.#requested;
    while (this.#completed < target && this.#running) await this.#running;
  }

  #start(): void {
    const generation = this.#requested;
    const running = this.#run()
      .catch(() => undefined)
      .then(() => {
        this.#completed = Math.max(this.#completed, generation);
        this.#running = undefined;
        if (this.#queued) {
          this.#queued = false;
          this.#start();
        }
      });
    this.#running = running;
  }
}
