import { readLineBatches } from '@toolgate/ledger/internal';
import type { RowTable } from './row-table.js';

const callKinds = new Set(['tool.called', 'policy.decided', 'tool.returned']);

interface Scan {
  readonly term: string;
  /** The rows matched so far, one bit a row. */
  bits: Uint8Array;
  /** How far the scan has read: the next seq, and its byte offset. */
  seq: number;
  offset: number;
  running?: Promise<void>;
}

/**
 * The search box of the viewer, answered from the file: the rows whose records' payloads hold a
 * term, found by one pass over the lines (only a line that holds the term is parsed) and kept as
 * one bit a row for the latest term, extended as records arrive.
 */
export class SearchIndex {
  readonly #file: string;
  readonly #rows: RowTable;
  #scan: Scan | undefined;

  constructor(file: string, rows: RowTable) {
    this.#file = file;
    this.#rows = rows;
  }

  /** A test of a row number: does the row hold `term` (already trimmed and lower-cased)? */
  async matching(term: string, count: number, offset: number): Promise<(row: number) => boolean> {
    if (this.#scan?.term !== term) this.#scan = { term, bits: new Uint8Array(1024), seq: 0, offset: 0 };
    const scan = this.#scan;
    for (let before = -1; scan.seq < count && scan.seq > before; ) {
      before = scan.seq;
      scan.running ??= this.#extend(scan, count, offset).finally(() => {
        scan.running = undefined;
      });
      await scan.running;
    }
    return (row) => scan.bits[row] === 1;
  }

  async #extend(scan: Scan, count: number, offset: number): Promise<void> {
    for await (const batch of readLineBatches(this.#file, { start: scan.offset, end: offset })) {
      for (const line of batch) {
        if (!line.complete || scan.seq >= count) return;
        if (line.text.toLowerCase().includes(scan.term) && holds(line.text, scan.term)) {
          const row = this.#rows.rowOf(scan.seq);
          if (row >= scan.bits.length) {
            const grown = new Uint8Array(Math.max(row + 1, scan.bits.length * 2));
            grown.set(scan.bits);
            scan.bits = grown;
          }
          scan.bits[row] = 1;
        }
        scan.seq++;
        scan.offset = line.end;
      }
    }
  }
}

/** The page's own test (its `searchTextOf`): the term is in the payload's JSON. */
function holds(line: string, term: string): boolean {
  const event = JSON.parse(line) as { kind: string; payload: unknown };
  const payload = event.payload;
  const object = typeof payload === 'object' && payload !== null && !Array.isArray(payload);
  const text = JSON.stringify(callKinds.has(event.kind) && !object ? {} : payload);
  return text.toLowerCase().includes(term);
}
