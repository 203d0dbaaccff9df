import { ToolgateError } from '@toolgate/core';
import { type ChainHead, emptyHead, type SealedEvent, sealEvent } from './chain.js';
import { checkDraft, type EventDraft, type LedgerEvent } from './event.js';

/** An injected clock: the time an event is stamped with. */
export type Clock = () => Date;

/**
 * How many of the latest event ids a store remembers, so that appending one of them again is a
 * no-op (a retried append after a failed write, a crash or a restart concerns the latest records).
 * A bounded cache: the memory a store holds does not grow with its ledger.
 */
export const rememberedIds = 1024;

/**
 * The writer's side of a chain: the head, the ids of the latest {@link rememberedIds} events, the
 * clock. Shared by the stores.
 */
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

  /** The seq of the stored event with this id, when it is one of the latest {@link rememberedIds}. */
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
    this.#ids.delete(event.id); // an id seen again moves to the newest end
    this.#ids.set(event.id, event.seq);
    if (this.#ids.size > rememberedIds) this.#ids.delete(this.#ids.keys().next().value as string);
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
