import { closeSync, fstatSync, fsyncSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import { ToolgateError } from '@toolgate/core';

import { faultError } from '../chain/chain.js';
import { ChainState, type Clock } from '../chain/chain-state.js';
import { scanLines, type TornTail } from '../verify/scan.js';
import { readLineBatches } from './lines.js';
import { lockLedger } from './lock.js';
import { RecordOffsets } from './record-offsets.js';
import { readTail } from './tail.js';

/**
 * What `FileStore.open` verifies. `tail` (the default): the records at the end of the file, which
 * a writer chains onto — time and memory independent of the ledger's length. `chain`: the whole
 * chain from the genesis hash first, as `verifyLedgerFile` does (linear in the file).
 */
export type OpenCheck = 'tail' | 'chain';

/** A ledger file opened for appending: locked, its tail verified and repaired. */
export interface OpenedLedgerFile {
  readonly fd: number;
  /** Drops the writer's lock. */
  readonly release: () => void;
  readonly chain: ChainState;
  /** Where the latest records start; older ones are searched for. */
  readonly offsets: RecordOffsets;
  /** The file's size after repair. */
  readonly size: number;
  /** The torn last line that was cut off. */
  readonly torn: TornTail | undefined;
  /** The seq of the whole last record whose missing newline was written. */
  readonly newlineAdded: number | undefined;
}

/**
 * Opens (or creates) a ledger file, takes the writer's lock, verifies its tail (and with `chain`
 * the whole chain first), cuts off a torn last line or adds a missing newline. LEDGER_UNAVAILABLE
 * or LEDGER_CORRUPT on failure, with the file closed and unlocked again.
 */
export async function openLedgerFile(
  path: string,
  clock: Clock | undefined,
  check: OpenCheck = 'tail',
): Promise<OpenedLedgerFile> {
  let fd: number | undefined;
  let release: (() => void) | undefined;
  try {
    fd = openSync(path, 'a+');
    release = lockLedger(fd, path);
    if (check === 'chain') {
      const scan = await scanLines(readLineBatches(path));
      if (scan.fault) throw faultError(scan.fault, path);
    }
    const tail = readTail(fd, fstatSync(fd).size, path);
    const chain = new ChainState(clock);
    const offsets = new RecordOffsets(fd, path);
    for (const { event, start } of tail.records) {
      chain.commit(event);
      offsets.add(event.seq, start);
    }
    let size = tail.size;
    if (tail.torn) {
      ftruncateSync(fd, size);
      fsyncSync(fd);
    }
    if (tail.unterminated !== undefined) {
      writeSync(fd, '\n'); // the file is open for appending: this lands at its end
      fsyncSync(fd);
      size += 1;
    }
    return { fd, release, chain, offsets, size, torn: tail.torn, newlineAdded: tail.unterminated };
  } catch (error) {
    release?.();
    if (fd !== undefined) closeSync(fd);
    if (ToolgateError.is(error)) throw error;
    throw new ToolgateError(
      'LEDGER_UNAVAILABLE',
      `cannot open the ledger ${path}: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
}
