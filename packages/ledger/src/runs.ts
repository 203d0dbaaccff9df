import type { LedgerEvent } from './chain/event.js';

/** One run of a ledger: where its events start and end, by seq and by time. */
export interface RunSummary {
  readonly runId: string;
  /** The seq of the run's first event. */
  readonly firstSeq: number;
  /** The seq of the run's last event so far. */
  readonly lastSeq: number;
  /** The `at` of the run's first event. */
  readonly firstAt: string;
  /** The `at` of the run's last event so far. */
  readonly lastAt: string;
  /** How many events the run has. */
  readonly count: number;
}

/** The runs of a ledger, kept up to date as events are added in seq order. */
export class RunIndex {
  readonly #runs = new Map<string, RunSummary>();

  /** Counts one more event (events come in seq order). */
  add(event: Pick<LedgerEvent, 'runId' | 'seq' | 'at'>): void {
    const run = this.#runs.get(event.runId);
    this.#runs.set(
      event.runId,
      run
        ? { ...run, lastSeq: event.seq, lastAt: event.at, count: run.count + 1 }
        : {
            runId: event.runId,
            firstSeq: event.seq,
            lastSeq: event.seq,
            firstAt: event.at,
            lastAt: event.at,
            count: 1,
          },
    );
  }

  /** The runs in the order they started (by first seq). */
  list(): RunSummary[] {
    return [...this.#runs.values()];
  }
}

/** The runs of a stream of events in seq order, e.g. `await runsOf(readLedgerFile(file))`. */
export async function runsOf(events: AsyncIterable<LedgerEvent>): Promise<RunSummary[]> {
  const index = new RunIndex();
  for await (const event of events) index.add(event);
  return index.list();
}
