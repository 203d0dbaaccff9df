/**
 * A verify worker: checks that a chunk of whole lines is a sound chain on its own, starting from
 * its first line's seq and prev. The main thread links the chunks and re-checks a failed one itself,
 * so a fault is always named exactly as the single-threaded verifier names it.
 *
 * @module
 */
import { isUtf8 } from 'node:buffer';
import { parentPort } from 'node:worker_threads';
import { ChainVerifier, isFault } from '../chain/chain.js';

/** A chunk to check. */
export interface ChunkRequest {
  id: number;
  buffer: ArrayBuffer;
  head: string | undefined;
}

/** What the worker found. */
export interface ChunkResult {
  id: number;
  buffer: ArrayBuffer;
  ok: boolean;
  count: number;
  firstSeq: number;
  firstPrev: string;
  lastHash: string;
  sawHead: boolean;
}

function check({ id, buffer, head }: ChunkRequest): ChunkResult {
  const failed = {
    id,
    buffer,
    ok: false,
    count: 0,
    firstSeq: -1,
    firstPrev: '',
    lastHash: '',
    sawHead: false,
  };
  const bytes = Buffer.from(buffer);
  // Bytes that are not UTF-8 are a bad record: the main thread re-checks the chunk and names it.
  if (!isUtf8(bytes)) return failed;
  const lines = bytes.toString('utf8').split('\n');
  lines.pop(); // the chunk ends with a newline
  let first: { seq?: unknown; prev?: unknown };
  try {
    first = JSON.parse(lines[0] ?? '');
  } catch {
    return failed;
  }
  if (!Number.isInteger(first?.seq) || typeof first.prev !== 'string') return failed;
  const start = { seq: first.seq as number, hash: first.prev };
  const verifier = new ChainVerifier(start);
  let sawHead = false;
  for (const line of lines) {
    const result = verifier.checkHash(line);
    if (isFault(result)) return failed;
    if (result === head) sawHead = true;
  }
  return {
    id,
    buffer,
    ok: true,
    count: lines.length,
    firstSeq: start.seq,
    firstPrev: start.hash,
    lastHash: verifier.head.hash,
    sawHead,
  };
}

parentPort?.on('message', (request: ChunkRequest) => {
  const result = check(request);
  parentPort!.postMessage(result, [result.buffer]);
});
