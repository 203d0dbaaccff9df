import { AsyncLocalStorage } from 'node:async_hooks';
import type { AgentHandle, ToolCall, ToolResult } from '@toolgate/core';

interface Waiting {
  call: ToolCall;
  resolve: (result: ToolResult) => void;
  reject: (error: unknown) => void;
}

/** Runs `flush` after the current task: every call the SDK starts in this step has been handed over by then. */
const afterThisTask: (flush: () => void) => void =
  typeof setImmediate === 'function' ? (flush) => setImmediate(flush) : (flush) => setTimeout(flush, 0);

/**
 * Gathers the gate calls of one tool set into batches and runs the batches one after another. The
 * AI SDK starts every call of a step at once; here the calls handed over together become one
 * `handle.callTools` batch, in the order they were handed over (the model's): it runs them
 * concurrently only when every one is parallel-safe, one at a time otherwise, and records them in
 * that order either way. A later batch waits for the one before it.
 */
export class CallQueue {
  readonly #handle: AgentHandle;
  #waiting: Waiting[] = [];
  #tail: Promise<void> = Promise.resolve();

  constructor(handle: AgentHandle) {
    this.#handle = handle;
  }

  /**
   * Runs one call in its batch; resolves with its result. The call starts being observed in the
   * async context it was handed over in (the SDK's span for this call), not the batch's.
   */
  run(handed: ToolCall): Promise<ToolResult> {
    const call: ToolCall = {
      ...handed,
      options: { ...handed.options, callerContext: AsyncLocalStorage.snapshot() },
    };
    return new Promise((resolve, reject) => {
      if (this.#waiting.push({ call, resolve, reject }) === 1) afterThisTask(() => this.#flush());
    });
  }

  #flush(): void {
    const batch = this.#waiting;
    this.#waiting = [];
    this.#tail = this.#tail.then(async () => {
      try {
        const results = await this.#handle.callTools(batch.map((waiting) => waiting.call));
        for (const [index, waiting] of batch.entries()) waiting.resolve(results[index]!);
      } catch (error) {
        // only a failing recorder throws: every call of the batch fails loudly with it
        for (const waiting of batch) waiting.reject(error);
      }
    });
  }
}
