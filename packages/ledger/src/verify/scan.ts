import { type ChainFault, type ChainHead, ChainVerifier, isFault } from '../chain/chain.js';
import type { LedgerEvent } from '../chain/event.js';
import type { Line } from '../file/lines.js';

/** A last line with no newline: a write a crash cut short. */
export interface TornTail {
  /** The seq the torn record would have had. */
  readonly seq: number;
  /** The byte offset it started at (the file's good length). */
  readonly offset: number;
  /** How many bytes of it were there. */
  readonly bytes: number;
}

/** What a scan of a ledger file found. */
export interface ScanResult {
  /** The count of good records. */
  readonly count: number;
  /** The head after the last good record. */
  readonly head: ChainHead;
  /** The byte length of the good records. */
  readonly size: number;
  /** The torn last line, when there is one. */
  readonly torn?: TornTail;
  /**
   * The seq of the last record when it is whole and verifies but lacks only its newline (a crash
   * between the record and its newline, or an editor that strips it): it counts as a good record.
   */
  readonly unterminated?: number;
  /** The first bad record, when there is one (a torn last line is not a fault here). */
  readonly fault?: ChainFault;
}

/**
 * Verifies lines one at a time, calling `onEvent` for each good record; stops at the first fault.
 * Without `onEvent` no record is parsed that the fast check can vouch for (see `fastCheckLine`):
 * `onHash` gets each good record's hash instead.
 */
export async function scanLines(
  batches: AsyncIterable<Line[]> | Iterable<Line[]>,
  onEvent?: (event: LedgerEvent, start: number) => void,
  onHash?: (hash: string) => void,
): Promise<ScanResult> {
  const verifier = new ChainVerifier();
  if (onEvent === undefined) return scanHashes(batches, verifier, onHash);
  let size = 0;
  for await (const batch of batches) {
    for (const line of batch) {
      if (!line.complete) {
        const seq = verifier.head.seq;
        const whole = verifier.checkLine(line);
        if (!isFault(whole)) {
          onEvent?.(whole, line.start);
          return { count: verifier.head.seq, head: verifier.head, size: line.end, unterminated: seq };
        }
        const torn = { seq, offset: line.start, bytes: line.end - line.start };
        return { count: seq, head: verifier.head, size, torn };
      }
      const result = verifier.checkLine(line);
      if (isFault(result)) return { count: verifier.head.seq, head: verifier.head, size, fault: result };
      onEvent?.(result, line.start);
      size = line.end;
    }
  }
  return { count: verifier.head.seq, head: verifier.head, size };
}

/** {@link scanLines} without events: each line checked by {@link ChainVerifier.checkHash}. */
async function scanHashes(
  batches: AsyncIterable<Line[]> | Iterable<Line[]>,
  verifier: ChainVerifier,
  onHash: ((hash: string) => void) | undefined,
): Promise<ScanResult> {
  let size = 0;
  for await (const batch of batches) {
    for (const line of batch) {
      if (!line.complete) {
        const seq = verifier.head.seq;
        const whole = verifier.checkLineHash(line);
        if (!isFault(whole)) {
          onHash?.(whole);
          return { count: verifier.head.seq, head: verifier.head, size: line.end, unterminated: seq };
        }
        const torn = { seq, offset: line.start, bytes: line.end - line.start };
        return { count: seq, head: verifier.head, size, torn };
      }
      const result = verifier.checkLineHash(line);
      if (isFault(result)) return { count: verifier.head.seq, head: verifier.head, size, fault: result };
      onHash?.(result);
      size = line.end;
    }
  }
  return { count: verifier.head.seq, head: verifier.head, size };
}

/** The lines of JSONL text, with the offsets {@link scanLines} expects, as one batch. */
export function linesOfText(text: string): Line[][] {
  const lines: Line[] = [];
  let start = 0;
  let bytes = 0;
  while (start < text.length) {
    const newline = text.indexOf('\n', start);
    const end = newline < 0 ? text.length : newline;
    const line = text.slice(start, end);
    const length = Buffer.byteLength(line) + (newline < 0 ? 0 : 1);
    lines.push({ text: line, start: bytes, end: bytes + length, complete: newline >= 0 });
    bytes += length;
    start = end + 1;
  }
  return [lines];
}
