import { setTimeout as sleep } from 'node:timers/promises';
import { ToolgateError } from '@toolgate/core';
import type { LedgerEvent } from '@toolgate/ledger';
import {
  type ChainFault,
  ChainVerifier,
  faultError,
  isFault,
  readLineBatches,
} from '@toolgate/ledger/internal';
import { RowTable } from './row-table.js';
import { SearchIndex } from './search-index.js';
import type { ViewerState, ViewerStatus } from './snapshot.js';

/** What {@link LedgerIndex.open} takes. */
export interface LedgerIndexOptions {
  /** How often the follow looks for new records, in ms. Default 100. */
  pollMs?: number;
  /** A checkpoint (byte offset and chain head) every this many records. Default 256. */
  checkpointEvery?: number;
}

/**
 * One verifying follow of a ledger file, shared by every page a viewer serves: it reads the file
 * once, checks each record against the chain, and keeps what paging needs (the rows as numbers, a
 * sparse index of byte offsets and chain heads) rather than the records. Records are read back
 * from the file by offset when a page asks for them, and verified again from the nearest
 * checkpoint to the next one, so a page never shows bytes other than those the chain vouches for.
 * "Verified" is said only once the follow has read to the end of the file.
 */
export class LedgerIndex {
  readonly file: string;
  readonly rows = new RowTable();
  readonly #every: number;
  readonly #pollMs: number;
  readonly #verifier = new ChainVerifier();
  readonly #offsets: number[] = [];
  readonly #heads: string[] = [];
  readonly #listeners = new Set<() => void>();
  readonly #controller = new AbortController();
  readonly #search: SearchIndex;
  #status: ViewerStatus = { state: 'verifying', count: 0 };
  #liveFault: string | undefined;
  #offset = 0;
  #last: { seq: number; hash: string } | undefined;
  #opened!: () => void;
  readonly #openedOnce = new Promise<void>((resolve) => {
    this.#opened = resolve;
  });

  private constructor(file: string, options: LedgerIndexOptions) {
    this.file = file;
    this.#every = options.checkpointEvery ?? 256;
    this.#pollMs = options.pollMs ?? 100;
    this.#search = new SearchIndex(file, this.rows);
  }

  /** Starts following `file` (which may not exist yet: it is looked for again each poll). */
  static open(file: string, options: LedgerIndexOptions = {}): LedgerIndex {
    const index = new LedgerIndex(file, options);
    void index.#follow();
    return index;
  }

  /** Resolves once the file was first opened, or failed to open. */
  opened(): Promise<void> {
    return this.#openedOnce;
  }

  /** What the header shows now. */
  state(): ViewerState {
    const count = this.#verifier.head.seq;
    return { file: this.file, status: this.#status, liveFault: this.#liveFault, count, last: this.#last };
  }

  /** Calls `listener` after each change (new records, a new status); returns the unsubscribe. */
  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Stops following. */
  close(): void {
    this.#controller.abort();
    this.#listeners.clear();
  }

  /** The rows whose records hold `term` (lower-cased), as a test of a row number. */
  searched(term: string): Promise<(row: number) => boolean> {
    return this.#search.matching(term, this.#verifier.head.seq, this.#offset);
  }

  /**
   * The verified records with these seqs, read back from the file: each span from the checkpoint
   * before it to the one after, checked against the chain and against the checkpoint's head, so a
   * file edited since it was indexed is a LEDGER_CORRUPT error, never a record shown as verified.
   */
  async records(seqs: readonly number[]): Promise<Map<number, LedgerEvent>> {
    const count = this.#verifier.head.seq;
    const headHash = this.#verifier.head.hash;
    const end = this.#offset;
    const wanted = [...new Set(seqs)].filter((seq) => seq >= 0 && seq < count).sort((a, b) => a - b);
    const found = new Map<number, LedgerEvent>();
    let next = 0;
    while (next < wanted.length) {
      const first = Math.floor(wanted[next]! / this.#every);
      let last = first;
      while (next < wanted.length && Math.floor(wanted[next]! / this.#every) <= last + 1) {
        last = Math.floor(wanted[next]! / this.#every);
        next++;
      }
      const stop = Math.min((last + 1) * this.#every, count);
      const verifier = new ChainVerifier({ seq: first * this.#every, hash: this.#heads[first]! });
      const stopOffset = stop === count ? end : this.#offsets[stop / this.#every]!;
      spans: for await (const batch of readLineBatches(this.file, {
        start: this.#offsets[first]!,
        end: stopOffset,
      })) {
        for (const line of batch) {
          const result = verifier.check(line.text);
          if (isFault(result)) throw changed(this.file, result);
          found.set(result.seq, result);
          if (verifier.head.seq >= stop) break spans;
        }
      }
      const expected = stop === count ? headHash : this.#heads[stop / this.#every];
      if (verifier.head.seq !== stop || verifier.head.hash !== expected) throw changed(this.file);
    }
    const keep = new Set(wanted);
    for (const seq of [...found.keys()]) if (!keep.has(seq)) found.delete(seq);
    return found;
  }

  async #follow(): Promise<void> {
    const signal = this.#controller.signal;
    let caughtUp = false;
    while (!signal.aborted) {
      try {
        for await (const batch of readLineBatches(this.file, { start: this.#offset })) {
          this.#opened();
          for (const line of batch) {
            // a last line without its newline is a write still under way: wait for the rest
            if (!line.complete) break;
            const result = this.#verifier.check(line.text);
            if (isFault(result)) return this.#fault(result, caughtUp);
            if (result.seq % this.#every === 0) {
              this.#offsets.push(line.start);
              this.#heads.push(result.prev);
            }
            this.rows.add(result);
            this.#offset = line.end;
            this.#last = { seq: result.seq, hash: result.hash };
          }
          if (!caughtUp) this.#status = { state: 'verifying', count: this.#verifier.head.seq };
          this.#notify();
          if (signal.aborted) return;
        }
      } catch (error) {
        this.#opened();
        const message = `cannot read the ledger ${this.file}: ${(error as Error).message}`;
        // a file that is not there (yet) or cannot be read is said so, never shown as verified
        if (caughtUp) this.#liveFault = message;
        else this.#status = { state: 'unreadable', message };
        this.#notify();
        if (!(await this.#wait())) return;
        continue;
      }
      this.#opened();
      if (!caughtUp || this.#liveFault !== undefined) {
        caughtUp = true;
        this.#liveFault = undefined;
        this.#status = { state: 'verified', count: this.#verifier.head.seq, last: this.#last };
      } else if (this.#status.state === 'verified' && this.#status.count !== this.#verifier.head.seq) {
        this.#status = { state: 'verified', count: this.#verifier.head.seq, last: this.#last };
      }
      this.#notify();
      if (!(await this.#wait())) return;
    }
  }

  #fault(fault: ChainFault, caughtUp: boolean): void {
    if (caughtUp) this.#liveFault = faultError(fault, this.file).message;
    else if (fault.code === 'LEDGER_UNAVAILABLE')
      this.#status = { state: 'unreadable', message: fault.reason };
    else this.#status = { state: 'corrupt', seq: fault.seq, reason: fault.reason };
    this.#notify();
  }

  async #wait(): Promise<boolean> {
    try {
      await sleep(this.#pollMs, undefined, { signal: this.#controller.signal });
      return true;
    } catch {
      return false;
    }
  }

  #notify(): void {
    for (const listener of this.#listeners) listener();
  }
}

function changed(file: string, fault?: ChainFault): ToolgateError {
  return new ToolgateError(
    'LEDGER_CORRUPT',
    `${file} changed after it was verified${fault ? ` (the record at seq ${fault.seq} is bad: ${fault.reason})` : ''}; reload the page to verify it again`,
  );
}
