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
          const text = Buffer.concat(carry).toString('utf8');
          batch.push({ text, start: carryStart, end: position + first + 1, complete: true });
          carry.length = 0;
          start = position + first + 1;
        }
        const begin = start - position;
        if (begin <= last) {
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
    if (carry.length > 0)
      yield [
        { text: Buffer.concat(carry).toString('utf8'), start: carryStart, end: position, complete: false },
      ];
  } finally {
    await handle.close();
  }
}

const nonAscii = /[^\x00-\x7f]/;

function isAscii(text: string): boolean {
  return !nonAscii.test(text);
}

/** Streams the lines of a file one at a time, in constant memory. */
export async function* readLines(path: string, options: ReadLinesOptions = {}): AsyncGenerator<Line> {
  for await (const batch of readLineBatches(path, options)) yield* batch;
}
