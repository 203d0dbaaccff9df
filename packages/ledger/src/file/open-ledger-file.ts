import { closeSync, fsyncSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import { ToolgateError } from '@toolgate/core';
import { faultError } from '../chain/chain.js';
import { ChainState, type Clock } from '../chain/chain-state.js';
import { RunIndex } from '../runs.js';
import { scanLedgerFile, type TornTail } from '../verify/scan.js';
import { lockLedger } from './lock.js';

/** A ledger file opened for appending: locked, verified, its tail repaired, its records indexed. */
export interface OpenedLedgerFile {
  readonly fd: number;
  /** Drops the writer's lock. */
  readonly release: () => void;
  readonly chain: ChainState;
  /** The byte offset of each record, by seq. */
  readonly offsets: number[];
  readonly runs: RunIndex;
  /** The file's size after repair. */
  readonly size: number;
  /** The torn last line that was cut off. */
  readonly torn: TornTail | undefined;
  /** The seq of the whole last record whose missing newline was written. */
  readonly newlineAdded: number | undefined;
}

/**
 * Opens (or creates) a ledger file, takes the writer's lock, verifies the chain, cuts off a torn
 * last line or adds a missing newline. LEDGER_UNAVAILABLE or LEDGER_CORRUPT on failure, with the
 * file closed and unlocked again.
 */
export async function openLedgerFile(path: string, clock: Clock | undefined): Promise<OpenedLedgerFile> {
  let fd: number | undefined;
  let release: (() => void) | undefined;
  try {
    fd = openSync(path, 'a+');
    release = lockLedger(fd, path);
    const chain = new ChainState(clock);
    const offsets: number[] = [];
    const runs = new RunIndex();
    const scan = await scanLedgerFile(path, (event, start) => {
      chain.commit(event);
      offsets.push(start);
      runs.add(event);
    });
    if (scan.fault) throw faultError(scan.fault, path);
    let size = scan.size;
    if (scan.torn) {
      ftruncateSync(fd, size);
      fsyncSync(fd);
    }
    if (scan.unterminated !== undefined) {
      writeSync(fd, '\n'); // the file is open for appending: this lands at its end
      fsyncSync(fd);
      size += 1;
    }
    return { fd, release, chain, offsets, runs, size, torn: scan.torn, newlineAdded: scan.unterminated };
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
