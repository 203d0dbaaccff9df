import { ToolgateError } from '@toolgate/core';
import { type ChainHead, lineOf } from './chain/chain.js';
import { ChainState, type Clock, Wakeup } from './chain/chain-state.js';
import type { EventDraft, LedgerEvent } from './chain/event.js';
import { followEvents } from './follow.js';
import { LedgerTree, type TreeHead } from './ledger-tree.js';
import { RunIndex, type RunSummary } from './runs.js';
import { type FollowOptions, type LedgerStore, matches, type ReadOptions } from './store.js';

/** What a {@link MemoryStore} is built with. */
export interface MemoryStoreOptions {
  /** Stamps `at`. Default: the system clock; inject {@link steppingClock} for reproducible ledgers. */
  clock?: Clock;
}

/**
 * A ledger held in memory: for tests, demos and replays that need no file. Same chain, same
 * hashes as the file store. It keeps every event it stores (about 1.2 KB for the three records of
 * a small call), the runs' summaries, and the ids of the latest 1,024 events (a bounded cache for
 * repeated appends); nothing else grows with it.
 *
 * @example
 * const store = new MemoryStore({ clock: steppingClock() });
 * await store.append({ runId: 'run-1', kind: 'run.started', actor: 'system', payload: {} });
 */
export class MemoryStore implements LedgerStore {
  readonly #chain: ChainState;
  readonly #events: LedgerEvent[] = [];
  readonly #wakeup = new Wakeup();
  readonly #runs = new RunIndex();
  readonly #tree = new LedgerTree((fromSeq) => this.read({ fromSeq }));
  #closed = false;

  constructor(options: MemoryStoreOptions = {}) {
    this.#chain = new ChainState(options.clock);
  }

  head(): ChainHead {
    return this.#chain.head;
  }

  async append(draft: EventDraft): Promise<LedgerEvent> {
    if (this.#closed)
      throw new ToolgateError('LEDGER_UNAVAILABLE', 'the memory ledger is closed; append before closing it');
    const existing = draft?.id === undefined ? undefined : this.#chain.seqOf(draft.id);
    if (existing !== undefined) return this.#events[existing]!;
    const sealed = this.#chain.seal(draft);
    this.#chain.commit(sealed.event);
    this.#events.push(sealed.event);
    this.#tree.sealed(sealed.event.seq, sealed.line, sealed.event.hash);
    this.#runs.add(sealed.event);
    this.#wakeup.wake();
    return sealed.event;
  }

  async *read(options: ReadOptions = {}): AsyncGenerator<LedgerEvent> {
    const end = this.#events.length;
    for (let seq = options.fromSeq ?? 0; seq < end; seq++) {
      const event = this.#events[seq]!;
      if (matches(event, options)) yield event;
    }
  }

  treeHead(): Promise<TreeHead> {
    return this.#tree.head();
  }

  async runs(): Promise<RunSummary[]> {
    return this.#runs.list();
  }

  follow(options: FollowOptions = {}): AsyncIterable<LedgerEvent> {
    return followEvents(
      {
        readFrom: (fromSeq) => this.read({ fromSeq }),
        count: () => this.#events.length,
        closed: () => this.#closed,
        wakeup: this.#wakeup,
      },
      options,
    );
  }

  /** The stored events as JSONL text, exactly as a file store would write them. */
  toJsonl(): string {
    return this.#events.map((event) => `${lineOf(event)}\n`).join('');
  }

  async flush(): Promise<void> {}

  async close(): Promise<void> {
    this.#closed = true;
    this.#wakeup.wake();
  }
}
