import { closeSync } from 'node:fs';

const capacity = 4096;

/**
 * The descriptors a search thread holds open, kept in memory shared with the thread that started it,
 * so that when a search thread is terminated at its deadline (in the middle of a walk, holding the
 * root, the directories above the current file and the file itself open) its owner can close them.
 * The walk opens and closes in last-in-first-out order, so a stack is enough. A descriptor is pushed
 * after it is opened and popped before it is closed: a thread stopped in between leaks one descriptor
 * at worst, and a descriptor number it already closed (and that may have been reused) is never closed.
 */
export class DescriptorStack {
  readonly #slots: Int32Array;

  /** Wraps the memory of {@link DescriptorStack.create}, on either side of the thread boundary. */
  constructor(readonly memory: SharedArrayBuffer) {
    this.#slots = new Int32Array(memory);
  }

  /** A new empty stack in shared memory. */
  static create(): DescriptorStack {
    return new DescriptorStack(new SharedArrayBuffer((capacity + 1) * Int32Array.BYTES_PER_ELEMENT));
  }

  /** Records a descriptor just opened. Past the capacity it goes unrecorded (and would leak). */
  opened(descriptor: number): void {
    const depth = Atomics.load(this.#slots, 0);
    if (depth >= capacity) return;
    Atomics.store(this.#slots, depth + 1, descriptor);
    Atomics.store(this.#slots, 0, depth + 1);
  }

  /** Forgets a descriptor about to be closed (the most recent one recorded). */
  closing(descriptor: number): void {
    const depth = Atomics.load(this.#slots, 0);
    if (depth > 0 && Atomics.load(this.#slots, depth) === descriptor)
      Atomics.store(this.#slots, 0, depth - 1);
  }

  /** Closes every descriptor still recorded. Only for a thread that has stopped for good. */
  closeAll(): number {
    const depth = Atomics.load(this.#slots, 0);
    for (let index = depth; index >= 1; index--) {
      try {
        closeSync(Atomics.load(this.#slots, index));
      } catch {
        // Already closed: nothing to release.
      }
    }
    Atomics.store(this.#slots, 0, 0);
    return depth;
  }
}
