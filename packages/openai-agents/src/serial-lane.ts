/**
 * Runs tasks one at a time, in the order they were queued. Every call through one set of gated
 * tools passes through one lane, so tools that are not parallel-safe never overlap even when the
 * run is started without the adapter's run options (which make Agents start them one at a time).
 */
export class SerialLane {
  #tail: Promise<unknown> = Promise.resolve();

  /** Runs `task` once every task queued before it has settled; its outcome is returned as is. */
  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(task, task);
    this.#tail = result.catch(() => undefined);
    return result;
  }
}
