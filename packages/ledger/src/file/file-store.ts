import { closeSync, readSync, writeSync } from 'node:fs';
import { ToolgateError } from '@toolgate/core';
import type { ChainHead } from '../chain/chain.js';
import { type ChainState, type Clock, Wakeup } from '../chain/chain-state.js';
import type { EventDraft, LedgerEvent } from '../chain/event.js';
import { followEvents } from '../follow.js';
import { LedgerTree, type TreeHead } from '../ledger-tree.js';
import { type RunSummary, runsOf } from '../runs.js';
import {
  type AppendOptions,
  type FollowOptions,
  type LedgerStore,
  matches,
  type ReadOptions,
} from '../store.js';
import type { TornTail } from '../verify/scan.js';
import { GroupSync } from './group-sync.js';
import { readLines } from './lines.js';
import { type OpenCheck, type OpenedLedgerFile, openLedgerFile } from './open-ledger-file.js';
import type { RecordOffsets } from './record-offsets.js';

/**
 * When an append counts as written. `always`: fsync before each append resolves. `batch` (the
 * default): group commit, appends that arrive together share one fsync before they resolve.
 * `none`: the OS flushes when it likes (a crash may lose the last appends, never corrupt earlier ones).
 */
export type Durability = 'always' | 'batch' | 'none';

/** What {@link FileStore.open} takes. */
export interface FileStoreOptions {
  /** Default `batch`. */
  durability?: Durability;
  /** Stamps `at`. Default: the system clock; inject {@link steppingClock} for reproducible ledgers. */
  clock?: Clock;
  /**
   * What opening verifies. `tail` (the default): the records at the end of the file (the last
   * 64 KiB of whole records, at least the last one) — what appending safely needs, in time and
   * memory that do not grow with the ledger. `chain`: the whole chain first, as `verifyLedgerFile`
   * does. Either way `verifyLedgerFile` (or `toolgate-ledger verify`) is the full check.
   */
  check?: OpenCheck;
}

const durabilities: readonly Durability[] = ['always', 'batch', 'none'];

/**
 * An append-only JSONL ledger file: one canonical-JSON event a line, each written whole in one
 * write. One writer at a time, enforced by an exclusive OS lock on the file itself. On open its tail
 * is verified (the whole chain with `check: 'chain'`); a torn last line (a crash mid-write) is cut
 * off and reported in {@link recovered}, a whole last record missing only its newline is kept and
 * the newline added ({@link newlineAdded}), a bad record in what was verified is an error.
 *
 * It keeps no state per record: the head, the ids and byte offsets of the latest records (bounded
 * caches of the latest 1,024); an older record is found by a
 * binary search over the file, and `runs()` reads the file.
 *
 * @example
 * const store = await FileStore.open('run.ledger.jsonl', { durability: 'batch' });
 * await store.append({ runId: 'run-1', kind: 'run.started', actor: 'system' });
 * await store.close();
 */
export class FileStore implements LedgerStore {
  /** The ledger file. */
  readonly path: string;
  readonly durability: Durability;
  /** The torn last line cut off when the file was opened, if there was one. */
  readonly recovered: TornTail | undefined;
  /**
   * The seq of the last record when it was whole but lacked its newline when the file was opened:
   * it was kept and the newline written.
   */
  readonly newlineAdded: number | undefined;
  readonly #fd: number;
  readonly #release: () => void;
  readonly #chain: ChainState;
  readonly #offsets: RecordOffsets;
  readonly #wakeup = new Wakeup();
  readonly #syncs: GroupSync;
  #size: number;
  readonly #tree = new LedgerTree((fromSeq) => this.read({ fromSeq }));
  #closed = false;
  #broken: Error | undefined;

  private constructor(path: string, durability: Durability, opened: OpenedLedgerFile) {
    this.path = path;
    this.durability = durability;
    this.#fd = opened.fd;
    this.#release = opened.release;
    this.#chain = opened.chain;
    this.#offsets = opened.offsets;
    this.#size = opened.size;
    this.recovered = opened.torn;
    this.newlineAdded = opened.newlineAdded;
    this.#syncs = new GroupSync(opened.fd, (error) => {
      this.#broken = error;
      return this.#brokenError();
    });
  }

  /**
   * Opens (or creates) a ledger file for writing. Refused with LEDGER_UNAVAILABLE while another
   * writer holds it or when it was written by a newer schema; LEDGER_CORRUPT when what it verifies
   * (see {@link FileStoreOptions.check}) fails anywhere but a torn last line.
   */
  static async open(path: string, options: FileStoreOptions = {}): Promise<FileStore> {
    const durability = options.durability ?? 'batch';
    if (!durabilities.includes(durability)) {
      throw new ToolgateError(
        'INVALID_DEFINITION',
        `durability ${JSON.stringify(durability)} is not one of "always", "batch", "none"`,
      );
    }
    const check = options.check ?? 'tail';
    if (check !== 'tail' && check !== 'chain') {
      throw new ToolgateError(
        'INVALID_DEFINITION',
        `check ${JSON.stringify(check)} is not one of "tail", "chain"`,
      );
    }
    return new FileStore(path, durability, await openLedgerFile(path, options.clock, check));
  }

  head(): ChainHead {
    return this.#chain.head;
  }

  /** How many fsyncs this store has issued: with `batch`, fewer than appends that arrived together. */
  get fsyncs(): number {
    return this.#syncs.count;
  }

  /**
   * Writes the event as one line; resolves when it is as durable as {@link durability} says, or,
   * with `{ durable: false }`, at once (written, not yet synced: the next durable append, flush or
   * close syncs it with everything before it).
   */
  async append(draft: EventDraft, options?: AppendOptions): Promise<LedgerEvent> {
    this.#usable();
    const durable = options?.durable !== false && this.durability !== 'none';
    const existing = draft?.id === undefined ? undefined : this.#chain.seqOf(draft.id);
    if (existing !== undefined) {
      if (durable) await this.#syncs.grouped();
      return this.#eventAt(existing);
    }
    const sealed = this.#chain.seal(draft);
    let length: number;
    try {
      length = writeLine(this.#fd, `${sealed.line}\n`);
    } catch (error) {
      this.#broken = error as Error;
      throw this.#brokenError();
    }
    this.#chain.commit(sealed.event);
    this.#tree.sealed(sealed.event.seq, sealed.line, sealed.event.hash);
    this.#offsets.add(sealed.event.seq, this.#size);
    this.#size += length;
    this.#wakeup.wake();
    if (!durable) return sealed.event;
    if (this.durability === 'always') await this.#syncs.now();
    else await this.#syncs.grouped();
    return sealed.event;
  }

  /**
   * The stored events that match, parsed from the file (not verified: `verifyLedgerFile` and
   * `readLedgerFile` verify). A line that is not a record is LEDGER_CORRUPT.
   */
  async *read(options: ReadOptions = {}): AsyncGenerator<LedgerEvent> {
    const from = Math.max(0, options.fromSeq ?? 0);
    const end = this.#size;
    const count = this.#chain.head.seq;
    if (from >= count) return;
    const start = this.#offsets.offsetOf(from, count, end);
    for await (const line of readLines(this.path, { start, end })) {
      const event = this.#parse(line.text, line.start, line.invalidUtf8);
      if (matches(event, options)) yield event;
    }
  }

  /**
   * The Merkle tree head over the records so far, made durable first (a checkpoint of it never
   * covers a record a crash could still lose): the first call reads and checks the file once.
   */
  async treeHead(): Promise<TreeHead> {
    await this.flush();
    return this.#tree.head();
  }

  /** The runs, read from the file: the store keeps no index of them. */
  async runs(): Promise<RunSummary[]> {
    return runsOf(this.read());
  }

  follow(options: FollowOptions = {}): AsyncIterable<LedgerEvent> {
    return followEvents(
      {
        readFrom: (fromSeq) => this.read({ fromSeq }),
        count: () => this.#chain.head.seq,
        closed: () => this.#closed,
        wakeup: this.#wakeup,
      },
      options,
    );
  }

  async flush(): Promise<void> {
    this.#usable();
    await this.#syncs.grouped();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    try {
      if (!this.#broken && this.durability !== 'none') await this.#syncs.grouped();
    } finally {
      this.#release();
      closeSync(this.#fd);
      this.#wakeup.wake();
    }
  }

  #usable(): void {
    if (this.#closed) {
      throw new ToolgateError(
        'LEDGER_UNAVAILABLE',
        `the ledger ${this.path} is closed; open it again to append`,
      );
    }
    if (this.#broken) throw this.#brokenError();
  }

  #brokenError(): ToolgateError {
    return new ToolgateError(
      'LEDGER_UNAVAILABLE',
      `the ledger ${this.path} could not be written (${this.#broken?.message}); ` +
        'no further appends are taken: close it and open it again, which recovers the last good record',
      { cause: this.#broken },
    );
  }

  #eventAt(seq: number): LedgerEvent {
    const count = this.#chain.head.seq;
    const start = this.#offsets.offsetOf(seq, count, this.#size);
    const end = this.#offsets.offsetOf(seq + 1, count, this.#size);
    const buffer = Buffer.alloc(end - start);
    readSync(this.#fd, buffer, 0, buffer.length, start);
    const text = buffer.toString('utf8').replace(/\n$/, '');
    return this.#parse(text, start, undefined);
  }

  #parse(text: string, start: number, invalidUtf8: true | undefined): LedgerEvent {
    try {
      if (!invalidUtf8) return JSON.parse(text) as LedgerEvent;
    } catch {}
    throw new ToolgateError(
      'LEDGER_CORRUPT',
      `${this.path}: the line at byte ${start} is not a ledger record${invalidUtf8 ? ' (not valid UTF-8)' : ''}; ` +
        `run \`toolgate-ledger verify ${this.path}\` to name the first bad record`,
    );
  }
}

/**
 * Writes a line whole at the end of the file and returns its length in bytes. The text goes to the
 * kernel as it is (no Buffer made for it); only a write cut short, which a regular file does not
 * do but at a full disk, goes on from the bytes not yet written.
 */
function writeLine(fd: number, text: string): number {
  const written = writeSync(fd, text);
  const length = Buffer.byteLength(text, 'utf8');
  if (written < length) {
    const bytes = Buffer.from(text, 'utf8');
    for (let at = written; at < length; ) at += writeSync(fd, bytes, at, length - at);
  }
  return length;
}
