import type { ChainHead } from './chain/chain.js';
import type { EventDraft, LedgerEvent } from './chain/event.js';
import type { TreeHead } from './ledger-tree.js';
import type { RunSummary } from './runs.js';

/** Which events a read returns. Every filter is optional; events come in seq order. */
export interface ReadOptions {
  /** Only events of this run. */
  runId?: string;
  /** Only events of this kind. */
  kind?: string;
  /** Only events at or after this seq (a tail). */
  fromSeq?: number;
}

/** How one append waits. */
export interface AppendOptions {
  /**
   * Default true: the append resolves once the event is as durable as the store promises. False:
   * it resolves once the event is written, in the store's order, before it is durable; the next
   * durable append, `flush` or `close` makes it durable together with everything before it (one
   * fsync for several records of a file). A store that has nothing cheaper (memory, PostgreSQL)
   * treats it as a durable append.
   */
  durable?: boolean;
}

/** What a live follow takes: a read filter, and a signal that ends it. */
export interface FollowOptions extends ReadOptions {
  signal?: AbortSignal;
}

/**
 * A ledger: an append-only, hash-chained sequence of events. The in-memory, the JSONL file and the
 * PostgreSQL stores implement it alike, so the recorder and replay work over either.
 */
export interface LedgerStore {
  /** The seq the next event gets, and the hash of the last one. */
  head(): ChainHead;
  /**
   * Seals and stores one event. Appending an id that is already stored stores nothing and returns
   * the stored event (the file and memory stores remember the ids of their latest 1,024 events, a
   * bounded cache; PostgreSQL all of them). Appends are chained in call order; the promise resolves
   * once the event is as durable as the store promises (or, with `{ durable: false }`, once it is
   * written: see {@link AppendOptions}).
   */
  append(draft: EventDraft, options?: AppendOptions): Promise<LedgerEvent>;
  /** The stored events that match, in seq order. */
  read(options?: ReadOptions): AsyncIterable<LedgerEvent>;
  /**
   * The head of the Merkle tree (RFC 9162) over the records stored so far, kept beside the chain:
   * what a signed checkpoint commits to. Each record is hashed into it once per store object.
   */
  treeHead(): Promise<TreeHead>;
  /** The runs stored so far, in the order they started, with their first and last seq and time. */
  runs(): Promise<RunSummary[]>;
  /** The stored events that match, then each new one as it is appended, until the signal aborts or the store closes. */
  follow(options?: FollowOptions): AsyncIterable<LedgerEvent>;
  /**
   * Makes every append so far durable, whatever the durability mode (an fsync for a file; nothing to
   * do in memory). With durability `none`, flushing at a boundary of your own — the end of a turn —
   * is a checkpoint: a crash loses at most what came after the last flush.
   */
  flush(): Promise<void>;
  /** Waits for pending appends and releases the store. Appending afterwards is an error. */
  close(): Promise<void>;
}

/** True when an event passes a read filter. */
export function matches(event: LedgerEvent, options: ReadOptions): boolean {
  return (
    (options.runId === undefined || event.runId === options.runId) &&
    (options.kind === undefined || event.kind === options.kind) &&
    (options.fromSeq === undefined || event.seq >= options.fromSeq)
  );
}

/** Collects every event a read yields, e.g. `await readAll(store.read({ runId }))`. */
export async function readAll(events: AsyncIterable<LedgerEvent>): Promise<LedgerEvent[]> {
  const all: LedgerEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}
