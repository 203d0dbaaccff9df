import { ToolgateError } from '@toolgate/core';
import { formatCheckpoint } from './checkpoint/checkpoint.js';
import { type NoteKey, parseSignerKey } from './checkpoint/keys.js';
import { signNote } from './checkpoint/note.js';
import type { TreeHead } from './ledger-tree.js';
import type { LedgerStore } from './store.js';

/** What a {@link Checkpointer} is started with. */
export interface CheckpointerOptions {
  readonly store: LedgerStore;
  /** The log's signer key (a parsed key, or its `PRIVATE+KEY+…` text from `toolgate-ledger keygen`). */
  readonly key: NoteKey | string;
  /** The checkpoint's origin line. Default: the key's name. */
  readonly origin?: string;
  /** Sign one once this many records were appended since the last (of the tree as it is by then). */
  readonly everyRecords?: number;
  /** Sign one this often, in seconds, when records were appended since the last. */
  readonly everySeconds?: number;
  /** Where each signed checkpoint goes (a file, a transparency service, a witness). */
  readonly write: (checkpoint: string, head: TreeHead) => void | Promise<void>;
  /** Told of a checkpoint that could not be signed or written; the next one is tried as usual. */
  readonly onError?: (error: unknown) => void;
}

/**
 * Signs a checkpoint of a store every N records and/or every T seconds while records arrive, and a
 * last one when stopped: a ledger that publishes its own tree heads as it grows.
 *
 * @example
 * const checkpoints = Checkpointer.start({
 *   store, key: readFileSync('log.key', 'utf8'), everyRecords: 1_000, everySeconds: 60,
 *   write: (note) => writeFileSync('latest.checkpoint', note),
 * });
 * // … the run …
 * await checkpoints.stop();
 */
export class Checkpointer {
  readonly #options: CheckpointerOptions;
  readonly #key: NoteKey;
  readonly #controller = new AbortController();
  readonly #following: Promise<void>;
  readonly #timer: NodeJS.Timeout | undefined;
  #signed = -1;
  #since = 0;
  #queue: Promise<unknown> = Promise.resolve();

  private constructor(options: CheckpointerOptions) {
    const key =
      typeof options.key === 'string'
        ? parseSignerKey(options.key)
        : { ok: true as const, value: options.key };
    if (!key.ok) throw new ToolgateError('INVALID_DEFINITION', `the checkpoint key: ${key.reason}`);
    if (key.value.kind !== 'log') {
      throw new ToolgateError(
        'INVALID_DEFINITION',
        `key "${key.value.name}" is a witness key; checkpoints take a log key`,
      );
    }
    for (const [name, value] of [
      ['everyRecords', options.everyRecords],
      ['everySeconds', options.everySeconds],
    ] as const) {
      if (value !== undefined && !(Number.isFinite(value) && value > 0)) {
        throw new ToolgateError('INVALID_DEFINITION', `${name} must be a positive number, not ${value}`);
      }
    }
    this.#options = options;
    this.#key = key.value;
    this.#following =
      options.everyRecords === undefined ? Promise.resolve() : this.#follow(options.everyRecords);
    this.#timer =
      options.everySeconds === undefined
        ? undefined
        : setInterval(() => void this.#sign(false), options.everySeconds * 1000).unref();
  }

  /** Starts signing checkpoints of the store as its options say. */
  static start(options: CheckpointerOptions): Checkpointer {
    return new Checkpointer(options);
  }

  /** Signs and writes a checkpoint now (even of a size signed before); resolves to it. */
  checkpoint(): Promise<string> {
    return this.#sign(true) as Promise<string>;
  }

  /** Stops, after a last checkpoint when records were appended since the one before. */
  async stop(): Promise<void> {
    this.#controller.abort();
    if (this.#timer) clearInterval(this.#timer);
    await this.#following;
    await this.#sign(false);
  }

  async #follow(every: number): Promise<void> {
    try {
      const from = this.#options.store.head().seq;
      for await (const _event of this.#options.store.follow({
        fromSeq: from,
        signal: this.#controller.signal,
      })) {
        if (++this.#since >= every) {
          this.#since = 0;
          void this.#sign(false);
        }
      }
    } catch (error) {
      this.#options.onError?.(error);
    }
  }

  #sign(always: boolean): Promise<string | undefined> {
    const next = this.#queue.then(async () => {
      try {
        const head = await this.#options.store.treeHead();
        if (!always && head.size === this.#signed) return undefined;
        const origin = this.#options.origin ?? this.#key.name;
        const note = signNote(
          formatCheckpoint({ origin, size: head.size, root: head.root, extensions: [] }),
          this.#key,
        );
        await this.#options.write(note, head);
        this.#signed = head.size;
        return note;
      } catch (error) {
        if (always) throw error;
        this.#options.onError?.(error);
        return undefined;
      }
    });
    this.#queue = next.catch(() => undefined);
    return next;
  }
}
