import { setTimeout as sleep } from 'node:timers/promises';
import { ToolgateError } from '@toolgate/core';
import { ChainVerifier, faultError, isFault } from '../chain/chain.js';
import type { LedgerEvent } from '../chain/event.js';
import { matches, type ReadOptions } from '../store.js';
import { readLineBatches } from './lines.js';

/** What {@link readLedgerFile} takes. */
export interface ReadLedgerFileOptions extends ReadOptions {
  /** Keep reading as another process appends, until the signal aborts. Default false. */
  follow?: boolean;
  signal?: AbortSignal;
  /** How often a follow looks for new records, in ms. Default 100. */
  pollMs?: number;
}

/**
 * Reads a ledger file without taking the writer's lock (another process may be appending),
 * verifying the chain as it goes: yields the matching events, and throws LEDGER_CORRUPT naming the
 * first bad record. With `follow`, waits for new records at the end (a line still being written is
 * waited for, not reported).
 *
 * @example
 * for await (const event of readLedgerFile('run.ledger.jsonl', { follow: true, kind: 'tool.returned' }))
 *   console.log(event.seq, event.payload);
 */
export async function* readLedgerFile(
  path: string,
  options: ReadLedgerFileOptions = {},
): AsyncGenerator<LedgerEvent> {
  const verifier = new ChainVerifier();
  let offset = 0;
  for (;;) {
    let torn = false;
    try {
      batchLoop: for await (const batch of readLineBatches(path, { start: offset })) {
        for (const line of batch) {
          if (!line.complete) {
            // A whole record missing only its newline counts, unless a writer may still be writing it.
            const whole = options.follow ? undefined : verifier.checkLine(line);
            if (whole && !isFault(whole)) {
              offset = line.end;
              if (matches(whole, options)) yield whole;
              return;
            }
            torn = true;
            break batchLoop;
          }
          const result = verifier.checkLine(line);
          if (isFault(result)) throw faultError(result, path);
          offset = line.end;
          if (matches(result, options)) yield result;
          if (options.signal?.aborted) return;
        }
      }
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
    if (!options.follow) {
      if (torn) {
        throw new ToolgateError(
          'LEDGER_CORRUPT',
          `${path}: the record at seq ${verifier.head.seq} is bad: the last line has no newline ` +
            '(a write was cut short by a crash)',
        );
      }
      return;
    }
    if (options.signal?.aborted) return;
    try {
      await sleep(options.pollMs ?? 100, undefined, options.signal ? { signal: options.signal } : {});
    } catch {
      return; // aborted
    }
  }
}
