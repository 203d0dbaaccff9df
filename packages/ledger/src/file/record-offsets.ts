import { readSync } from 'node:fs';
import { ToolgateError } from '@toolgate/core';

/** How many of the latest records' byte offsets a file store keeps (a bounded cache, not an index). */
export const rememberedOffsets = 1024;

/** The probe size of a seek: a binary search step reads this much, or a line if it is longer. */
const probeBytes = 1 << 12;

/** A linear scan takes over once the search has narrowed to this many bytes. */
const scanBytes = 1 << 16;

/**
 * Where each record of a ledger file starts, found without an index: the latest records' offsets
 * are kept in a ring of {@link rememberedOffsets}; an older record is found by a binary search over
 * the file on the seq of its lines (record `seq` is line `seq + 1` of a sound ledger), reading
 * O(log n) small pieces of it. Memory stays flat however long the ledger grows.
 */
export class RecordOffsets {
  readonly #fd: number;
  readonly #path: string;
  readonly #ring = new Float64Array(rememberedOffsets);
  /** The seq after the last remembered record, and how many are remembered. */
  #end = 0;
  #count = 0;

  constructor(fd: number, path: string) {
    this.#fd = fd;
    this.#path = path;
  }

  /** Remembers where the record with this seq starts (seqs come in order, one after another). */
  add(seq: number, start: number): void {
    if (seq !== this.#end) this.#count = 0;
    this.#ring[seq % rememberedOffsets] = start;
    this.#end = seq + 1;
    this.#count = Math.min(this.#count + 1, rememberedOffsets);
  }

  /**
   * The byte offset of the record with this seq, in a file of `size` bytes holding `count` records.
   * @throws ToolgateError LEDGER_CORRUPT when the file holds no line with that seq where it must.
   */
  offsetOf(seq: number, count: number, size: number): number {
    if (seq >= count) return size;
    const oldest = this.#end - this.#count;
    if (this.#count > 0 && seq >= oldest && seq < this.#end) return this.#ring[seq % rememberedOffsets]!;
    return this.#search(
      seq,
      this.#count > 0 && seq < oldest ? this.#ring[oldest % rememberedOffsets]! : size,
    );
  }

  /** Binary search over [0, high) for the line whose seq is `seq`, then a scan of what is left. */
  #search(seq: number, high: number): number {
    let low = 0;
    while (high - low > scanBytes) {
      const middle = Math.floor((low + high) / 2);
      const start = this.#lineStartFrom(middle, high);
      if (start >= high) {
        high = middle;
        continue;
      }
      const found = this.#seqAt(start);
      if (found === seq) return start;
      if (found < seq) low = start;
      else high = start;
    }
    for (let start = low; start < high; ) {
      const line = this.#lineAt(start);
      if (this.#seqOf(line, start) === seq) return start;
      start += line.length + 1;
    }
    throw new ToolgateError(
      'LEDGER_CORRUPT',
      `${this.#path}: no line holds the record at seq ${seq} where it must stand; ` +
        `run \`toolgate-ledger verify ${this.#path}\` to name the first bad record`,
    );
  }

  /** The start of the first line at or after `position` (0 stays 0), or `limit` when none starts before it. */
  #lineStartFrom(position: number, limit: number): number {
    if (position === 0) return 0;
    const buffer = Buffer.allocUnsafe(probeBytes);
    for (let at = position - 1; at < limit; at += probeBytes) {
      const read = readSync(this.#fd, buffer, 0, Math.min(probeBytes, limit - at), at);
      if (read === 0) break;
      const newline = buffer.subarray(0, read).indexOf(10);
      if (newline >= 0) return at + newline + 1;
    }
    return limit;
  }

  #seqAt(start: number): number {
    return this.#seqOf(this.#lineAt(start), start);
  }

  /** The bytes of the line starting at `start`, without its newline. */
  #lineAt(start: number): Buffer {
    const pieces: Buffer[] = [];
    for (let at = start; ; ) {
      const buffer = Buffer.allocUnsafe(probeBytes);
      const read = readSync(this.#fd, buffer, 0, probeBytes, at);
      if (read === 0) return Buffer.concat(pieces);
      const newline = buffer.subarray(0, read).indexOf(10);
      if (newline >= 0) {
        pieces.push(buffer.subarray(0, newline));
        return Buffer.concat(pieces);
      }
      pieces.push(buffer.subarray(0, read));
      at += read;
    }
  }

  #seqOf(line: Buffer, start: number): number {
    let seq: unknown;
    try {
      seq = (JSON.parse(line.toString('utf8')) as { seq?: unknown }).seq;
    } catch {
      seq = undefined;
    }
    if (Number.isSafeInteger(seq)) return seq as number;
    throw new ToolgateError(
      'LEDGER_CORRUPT',
      `${this.#path}: the line at byte ${start} is not a ledger record; ` +
        `run \`toolgate-ledger verify ${this.#path}\` to name the first bad record`,
    );
  }
}
