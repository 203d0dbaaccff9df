import { ToolgateError } from '@toolgate/core';
import { type ChainHead, emptyHead, type SealedEvent, sealEvent } from './chain.js';
import { checkDraft, type EventDraft, type LedgerEvent } from './event.js';

/** An injected clock: the time an event is stamped with. */
export type Clock = () => Date;

/** The writer's side of a chain: the head, the ids stored so far, the clock. Shared by the stores. */
export class ChainState {
  #head: ChainHead = emptyHead;
  readonly #ids = new Map<string, number>();
  readonly #stamp: () => string;

  constructor(clock?: Clock) {
    this.#stamp = stamper(clock);
  }

  get head(): ChainHead {
    return this.#head;
  }

  /** The seq of the stored event with this id. */
  seqOf(id: string): number | undefined {
    return this.#ids.get(id);
  }

  /** Seals a draft at the head without moving it; call {@link commit} once it is stored. */
  seal(draft: EventDraft): SealedEvent {
    checkDraft(draft);
    return sealEvent(draft, this.#head, this.#stamp());
  }

  /** Moves the head past a stored event (one just sealed, or one read back when a file is opened). */
  commit(event: LedgerEvent): void {
    this.#ids.set(event.id, event.seq);
    this.#head = { seq: event.seq + 1, hash: event.hash };
  }
}

/**
 * The `at` of each new event from a clock: its ISO text, checked to be a valid Date; appends within
 * one millisecond share the text. Default clock: the system clock.
 */
export function stamper(clock: Clock = () => new Date()): () => string {
  let lastTime = Number.NaN;
  let lastText = '';
  return () => {
    const at = clock();
    const time = at instanceof Date ? at.getTime() : Number.NaN;
    if (Number.isNaN(time)) {
      throw new ToolgateError('INVALID_DEFINITION', 'the ledger clock did not return a valid Date');
    }
    if (time !== lastTime) {
      lastText = at.toISOString();
      lastTime = time;
    }
    return lastText;
  };
}

/** A promise that resolves at the next append or close: how followers wait. */
export class Wakeup {
  #waiters: (() => void)[] = [];

  wait(signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      const done = () => {
        signal?.removeEventListener('abort', done);
        resolve();
      };
      this.#waiters.push(done);
      signal?.addEventListener('abort', done, { once: true });
    });
  }

  wake(): void {
    if (this.#waiters.length === 0) return;
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const waiter of waiters) waiter();
  }
}
