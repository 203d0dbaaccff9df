import { isUtf8 } from 'node:buffer';
import { open } from 'node:fs/promises';

/** One line of a JSONL file, with its byte offsets. */
export interface Line {
  /** The text, without the newline. */
  readonly text: string;
  /** The byte offset the line starts at. */
  readonly start: number;
  /** The byte offset just past its newline (or past the end of the file, for an unfinished line). */
  readonly end: number;
  /** False for a last line with no newline: a write cut short. */
  readonly complete: boolean;
  /**
   * True when the line's bytes are not valid UTF-8: its `text` then holds U+FFFD where they stood,
   * so it is not the record that was written (a reader reports it as bad, never hashes the text).
   */
  readonly invalidUtf8?: true;
}

/** What {@link readLines} takes. */
export interface ReadLinesOptions {
  /** Byte offset to start at. Default 0. */
  start?: number;
  /** Byte offset to stop at. Default: the end of the file. */
  end?: number;
  /** Bytes read at a time. Default 64 KiB. */
  chunkSize?: number;
}

/**
 * 64 KiB: a chunk decodes to a string small enough for V8's young generation, which a scavenge frees
 * at once; a 1 MiB one lands in the large-object space, which only a full collection frees, so the
 * heap grew with the length of the ledger.
 */
const defaultChunkSize = 1 << 16;

/**
 * Streams the lines of a file in constant memory, a chunk's worth of lines at a time (one await
 * per chunk rather than per line). Linear in the file's size however long a line: a line that
 * spans chunks is gathered as a list of pieces and joined once, at its newline.
 */
export async function* readLineBatches(path: string, options: ReadLinesOptions = {}): AsyncGenerator<Line[]> {
  const handle = await open(path, 'r');
  try {
    const end = options.end ?? Number.POSITIVE_INFINITY;
    const chunkSize = options.chunkSize ?? defaultChunkSize;
    const buffer = Buffer.allocUnsafe(chunkSize);
    let position = options.start ?? 0;
    const carry: Buffer[] = [];
    let carryStart = position;
    while (position < end) {
      const { bytesRead } = await handle.read(buffer, 0, Math.min(chunkSize, end - position), position);
      if (bytesRead === 0) break;
      const batch: Line[] = [];
      let from = 0;
      const last = buffer.lastIndexOf(10, bytesRead - 1);
      if (last >= 0) {
        // Decode every whole line of the chunk at once, then split: far cheaper than line by line.
        const first = buffer.indexOf(10);
        let start = position;
        if (carry.length > 0) {
          carry.push(buffer.subarray(0, first));
          batch.push(lineOf(Buffer.concat(carry), carryStart, position + first + 1, true));
          carry.length = 0;
          start = position + first + 1;
        }
        const begin = start - position;
        if (begin <= last && !isUtf8(buffer.subarray(begin, last))) {
          // Some line of the chunk is not UTF-8: line by line, so each is judged on its own bytes.
          for (let from = begin; from <= last; ) {
            const newline = buffer.indexOf(10, from);
            batch.push(lineOf(buffer.subarray(from, newline), position + from, position + newline + 1, true));
            from = newline + 1;
          }
        } else if (begin <= last) {
          const decoded = buffer.toString('utf8', begin, last);
          // Every byte became one code unit: each line's byte length is its length (no per-line scan).
          const oneUnitPerByte = decoded.length === last - begin;
          const texts = decoded.split('\n');
          for (const text of texts) {
            const bytes = oneUnitPerByte || isAscii(text) ? text.length : Buffer.byteLength(text);
            const end = start + bytes + 1;
            batch.push({ text, start, end, complete: true });
            start = end;
          }
        }
        from = last + 1;
      }
      if (from < bytesRead) {
        if (carry.length === 0) carryStart = position + from;
        carry.push(Buffer.from(buffer.subarray(from, bytesRead)));
      }
      position += bytesRead;
      if (batch.length > 0) yield batch;
    }
    if (carry.length > 0) yield [lineOf(Buffer.concat(carry), carryStart, position, false)];
  } finally {
    await handle.close();
  }
}

/** A line from its bytes (without the newline), flagged when they are not UTF-8. */
export function lineOf(bytes: Buffer, start: number, end: number, complete: boolean): Line {
  const text = bytes.toString('utf8');
  return isUtf8(bytes) ? { text, start, end, complete } : { text, start, end, complete, invalidUtf8: true };
}

const nonAscii = /[^\x00-\x7f]/;

function isAscii(text: string): boolean {
  return !nonAscii.test(text);
}

/** Streams the lines of a file one at a time, in constant memory. */
export async function* readLines(path: string, options: ReadLinesOptions = {}): AsyncGenerator<Line> {
  for await (const batch of readLineBatches(path, options)) yield* batch;
}
