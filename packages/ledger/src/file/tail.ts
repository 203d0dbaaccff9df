import { readSync } from 'node:fs';
import { ToolgateError } from '@toolgate/core';
import { type ChainHead, ChainVerifier, emptyHead, faultError, isFault } from '../chain/chain.js';
import type { LedgerEvent } from '../chain/event.js';
import type { TornTail } from '../verify/scan.js';
import { lineOf } from './lines.js';

/** A record of the tail, with the byte offset its line starts at. */
export interface TailRecord {
  readonly event: LedgerEvent;
  readonly start: number;
}

/** What the end of a ledger file holds: what a writer needs to append to it safely. */
export interface LedgerTail {
  /** The head after the last good record. */
  readonly head: ChainHead;
  /** The records read at the end, oldest first (a window of about {@link tailWindowBytes}). */
  readonly records: readonly TailRecord[];
  /** The byte length of the good records (where a torn last line starts). */
  readonly size: number;
  /** The torn last line, when there is one. */
  readonly torn?: TornTail;
  /** The seq of a whole last record that lacks only its newline. */
  readonly unterminated?: number;
}

/** How much of a file's end is read and verified on open: at least the last whole record. */
export const tailWindowBytes = 1 << 16;

/**
 * Reads and verifies the end of a ledger file, in time and memory bounded by the window (and the
 * length of its last records), never the file: the whole records of the last 64 KiB (at least the
 * last one) must be sound and chained to one another — the first of them checked against its own
 * seq and prev, or against the genesis hash when the window reaches the file's start — and a last
 * line without its newline is either a whole record that chains on (kept) or a torn write (to cut).
 *
 * @throws ToolgateError LEDGER_CORRUPT (LEDGER_UNAVAILABLE for a newer schema) naming the bad record.
 */
export function readTail(fd: number, fileSize: number, path: string): LedgerTail {
  if (fileSize === 0) return { head: emptyHead, records: [], size: 0 };
  let from = Math.max(0, fileSize - tailWindowBytes);
  let bytes = readRange(fd, from, fileSize);
  let last = bytes.lastIndexOf(10);
  // Widen until a whole line lies before the last newline, or the window is the whole file.
  while (from > 0 && (last <= 0 || bytes.lastIndexOf(10, last - 1) < 0)) {
    const wider = Math.max(0, from - Math.max(tailWindowBytes, fileSize - from));
    bytes = Buffer.concat([readRange(fd, wider, from), bytes]);
    from = wider;
    last = bytes.lastIndexOf(10);
  }
  const first = from === 0 ? 0 : bytes.indexOf(10) + 1;
  const whole = last + 1; // 0 when no line is whole
  const verifier = new ChainVerifier(from === 0 ? emptyHead : anchor(bytes, first, from + first, path));
  const records: TailRecord[] = [];
  for (let at = first; at < whole; ) {
    const newline = bytes.indexOf(10, at);
    const checked = verifier.checkLine(
      lineOf(bytes.subarray(at, newline), from + at, from + newline + 1, true),
    );
    if (isFault(checked)) throw faultError(checked, path);
    records.push({ event: checked, start: from + at });
    at = newline + 1;
  }
  if (whole === bytes.length) return { head: verifier.head, records, size: fileSize };
  const seq = verifier.head.seq;
  const rest = lineOf(bytes.subarray(whole), from + whole, fileSize, false);
  const checked = verifier.checkLine(rest);
  if (!isFault(checked)) {
    records.push({ event: checked, start: from + whole });
    return { head: verifier.head, records, size: fileSize, unterminated: seq };
  }
  const torn = { seq, offset: from + whole, bytes: bytes.length - whole };
  return { head: verifier.head, records, size: from + whole, torn };
}

/** Where the first record of a window claims to stand: its own seq and prev, checked by what follows. */
function anchor(bytes: Buffer, at: number, offset: number, path: string): ChainHead {
  const newline = bytes.indexOf(10, at);
  let claimed: { seq?: unknown; prev?: unknown } | undefined;
  try {
    claimed = JSON.parse(bytes.toString('utf8', at, newline));
  } catch {
    claimed = undefined;
  }
  if (
    Number.isSafeInteger(claimed?.seq) &&
    (claimed!.seq as number) >= 0 &&
    typeof claimed?.prev === 'string'
  )
    return { seq: claimed.seq as number, hash: claimed.prev };
  throw new ToolgateError(
    'LEDGER_CORRUPT',
    `${path}: the record at byte ${offset}, near the end, is bad: it is not a ledger record with a seq and a prev; ` +
      `run \`toolgate-ledger verify ${path}\` to name the first bad record`,
  );
}

function readRange(fd: number, start: number, end: number): Buffer {
  const buffer = Buffer.allocUnsafe(end - start);
  let read = 0;
  while (read < buffer.length) {
    const count = readSync(fd, buffer, read, buffer.length - read, start + read);
    if (count === 0) break;
    read += count;
  }
  return buffer.subarray(0, read);
}
