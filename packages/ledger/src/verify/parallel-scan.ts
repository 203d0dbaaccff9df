import { existsSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

import { ChainVerifier, emptyHead, isFault } from '../chain/chain.js';
import { lineOf } from '../file/lines.js';

import type { ScanResult } from './scan.js';
import type { ChunkRequest, ChunkResult } from './verify-worker.js';

const chunkSize = 1 << 20;
const workerUrl = new URL('./verify-worker.js', import.meta.url);

/** True when the compiled worker is beside this module (it is not when running from source). */
export function parallelScanAvailable(): boolean {
  return existsSync(fileURLToPath(workerUrl));
}

/**
 * Scans a ledger file with `workers` threads: this thread reads 1 MiB chunks of whole lines and links
 * them; the workers check each chunk's records. At most two chunks per worker are in memory.
 */
export async function scanInParallel(
  path: string,
  workers: number,
  head?: string,
): Promise<ScanResult & { headFound: boolean }> {
  // execArgv: [] so the worker resolves packages by the default conditions, whatever this process was started with.
  const pool = Array.from({ length: workers }, () => new Worker(workerUrl, { execArgv: [] }));
  const handle = await open(path, 'r');
  const pending = new Map<number, (result: ChunkResult) => void>();
  let failure: ((error: Error) => void) | undefined;
  const failed = new Promise<never>((_, reject) => {
    failure = reject;
  });
  failed.catch(() => {});
  for (const worker of pool) {
    worker.on('message', (result: ChunkResult) => pending.get(result.id)?.(result));
    worker.on('error', (error) => failure?.(error));
  }
  let expected = emptyHead;
  let size = 0;
  let headFound = head === undefined;
  const inFlight: Promise<ChunkResult>[] = [];
  let next = 0;
  const submit = (chunk: Buffer) => {
    const id = next++;
    const buffer = new ArrayBuffer(chunk.length);
    chunk.copy(Buffer.from(buffer));
    inFlight.push(new Promise((resolve) => pending.set(id, resolve)));
    const request: ChunkRequest = { id, buffer, head };
    pool[id % workers]!.postMessage(request, [buffer]);
  };
  /** Links one checked chunk; re-checks it here when it does not link or a record in it is bad. */
  const settle = async (): Promise<ScanResult | undefined> => {
    const result = await Promise.race([inFlight.shift()!, failed]);
    pending.delete(result.id);
    if (result.ok && result.firstSeq === expected.seq && result.firstPrev === expected.hash) {
      expected = { seq: expected.seq + result.count, hash: result.lastHash };
      size += result.buffer.byteLength;
      if (result.sawHead) headFound = true;
      return undefined;
    }
    const verifier = new ChainVerifier(expected);
    const bytes = Buffer.from(result.buffer);
    for (let from = 0; from < bytes.length; ) {
      const newline = bytes.indexOf(10, from);
      const checked = verifier.checkLine(
        lineOf(bytes.subarray(from, newline), size, size + newline + 1 - from, true),
      );
      if (isFault(checked)) return { count: verifier.head.seq, head: verifier.head, size, fault: checked };
      if (checked.hash === head) headFound = true;
      size += newline + 1 - from;
      from = newline + 1;
    }
    expected = verifier.head;
    return undefined;
  };
  try {
    // A line that spans chunks is gathered as pieces and joined once: linear however long it is.
    const carry: Buffer[] = [];
    let carried = 0;
    const buffer = Buffer.allocUnsafe(chunkSize);
    for (let position = 0; ; ) {
      const { bytesRead } = await handle.read(buffer, 0, chunkSize, position);
      if (bytesRead === 0) break;
      position += bytesRead;
      const read = buffer.subarray(0, bytesRead);
      const last = read.lastIndexOf(10);
      if (last < 0) {
        carry.push(Buffer.from(read));
        carried += bytesRead;
        continue;
      }
      const data =
        carried > 0 ? Buffer.concat([...carry, read.subarray(0, last + 1)]) : read.subarray(0, last + 1);
      carry.length = 0;
      carried = 0;
      if (last + 1 < bytesRead) {
        carry.push(Buffer.from(read.subarray(last + 1)));
        carried = bytesRead - last - 1;
      }
      submit(data);
      if (inFlight.length >= workers * 2) {
        const fault = await settle();
        if (fault) return { ...fault, headFound };
      }
    }
    while (inFlight.length > 0) {
      const fault = await settle();
      if (fault) return { ...fault, headFound };
    }
    if (carried > 0) {
      // A whole last record missing only its newline counts; anything else is a torn tail.
      const verifier = new ChainVerifier(expected);
      const whole = verifier.checkLine(lineOf(Buffer.concat(carry), size, size + carried, false));
      if (!isFault(whole)) {
        if (whole.hash === head) headFound = true;
        const last = { count: verifier.head.seq, head: verifier.head, size: size + carried, headFound };
        return { ...last, unterminated: expected.seq };
      }
    }
    const done = { count: expected.seq, head: expected, size, headFound };
    return carried > 0 ? { ...done, torn: { seq: expected.seq, offset: size, bytes: carried } } : done;
  } finally {
    await handle.close();
    await Promise.all(pool.map((worker) => worker.terminate()));
  }
}
