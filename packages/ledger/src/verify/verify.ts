import { ToolgateError } from '@toolgate/core';
import { readLineBatches } from '../file/lines.js';
import { parallelScanAvailable, scanInParallel } from './parallel-scan.js';
import { linesOfText, type ScanResult, scanLines } from './scan.js';

/** What {@link verifyLedgerFile} takes. */
export interface VerifyOptions {
  /**
   * A hash kept elsewhere (from `toolgate-ledger head`). The ledger must contain a record with
   * this hash, or its tail was cut off.
   */
  head?: string;
  /**
   * Worker threads to check records on, beside this thread reading the file. Default 0. Worth it on
   * a multi-core machine with cores to spare; on a busy one it is slower. The result is the same.
   */
  workers?: number;
}

/** The outcome of a verification. */
export type VerifyResult =
  | {
      readonly ok: true;
      /** How many records verified. */
      readonly count: number;
      /** The last record's seq and hash; undefined for an empty ledger. */
      readonly last: { readonly seq: number; readonly hash: string } | undefined;
    }
  | {
      readonly ok: false;
      /** How many records verified before the bad one. */
      readonly count: number;
      /** The seq the first bad record stands at (the count of records when a kept head is missing). */
      readonly seq: number;
      /** Why it is bad. */
      readonly reason: string;
      /** LEDGER_UNAVAILABLE for a newer schema version, LEDGER_CORRUPT otherwise. */
      readonly code: 'LEDGER_CORRUPT' | 'LEDGER_UNAVAILABLE';
    };

/**
 * Verifies a JSONL ledger file in constant memory, line by line: every record must fit the
 * envelope, stand at the next seq, chain to the one before it, be canonical JSON and hash to its
 * own hash. Names the first bad record and why. Never throws for a bad ledger; a file that cannot
 * be read throws LEDGER_UNAVAILABLE.
 *
 * @example
 * const result = await verifyLedgerFile('run.ledger.jsonl');
 * if (!result.ok) console.error(`seq ${result.seq}: ${result.reason}`);
 */
export async function verifyLedgerFile(path: string, options: VerifyOptions = {}): Promise<VerifyResult> {
  try {
    const workers = options.workers ?? 0;
    if (workers > 0 && parallelScanAvailable()) {
      const scanned = await scanInParallel(path, workers, options.head);
      return judge({}, async () => scanned, scanned.headFound ? undefined : options.head);
    }
    return await judge(options, (onHash) => scanLines(readLineBatches(path), undefined, onHash));
  } catch (error) {
    if (ToolgateError.is(error)) throw error;
    throw new ToolgateError(
      'LEDGER_UNAVAILABLE',
      `cannot read the ledger ${path}: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
}

/** Verifies ledger JSONL text (e.g. {@link MemoryStore.toJsonl}) the same way. */
export function verifyLedgerText(text: string, options: VerifyOptions = {}): Promise<VerifyResult> {
  return judge(options, (onHash) => scanLines(linesOfText(text), undefined, onHash));
}

async function judge(
  options: VerifyOptions,
  scan: (onHash?: (hash: string) => void) => Promise<ScanResult>,
  missingHead?: string,
): Promise<VerifyResult> {
  let headFound = options.head === undefined && missingHead === undefined;
  const result = await scan(
    headFound
      ? undefined
      : (hash) => {
          if (hash === options.head) headFound = true;
        },
  );
  if (result.fault) {
    const { seq, reason, code } = result.fault;
    return { ok: false, count: result.count, seq, reason, code };
  }
  if (result.torn) {
    return {
      ok: false,
      count: result.count,
      seq: result.torn.seq,
      reason:
        `the last line (${result.torn.bytes} bytes) has no newline: a write was cut short by a crash; ` +
        'opening the ledger for writing cuts it off',
      code: 'LEDGER_CORRUPT',
    };
  }
  if (!headFound) {
    return {
      ok: false,
      count: result.count,
      seq: result.count,
      reason:
        `no record has the kept head hash ${options.head ?? missingHead}: the ledger ends at seq ${result.count - 1}, ` +
        'so records were cut from its end (or the head is from another ledger)',
      code: 'LEDGER_CORRUPT',
    };
  }
  const last = result.count === 0 ? undefined : { seq: result.count - 1, hash: result.head.hash };
  return { ok: true, count: result.count, last };
}
