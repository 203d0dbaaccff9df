import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { ToolgateError } from '@toolgate/core';

/** The lock file that marks a ledger as held by one writer: the ledger's path plus `.lock`. */
export function lockPathOf(path: string): string {
  return `${path}.lock`;
}

/**
 * Takes the writer's lock: creates `<path>.lock` exclusively (O_EXCL) holding this pid. A lock
 * whose pid is no longer running is stale (its writer crashed) and is taken over; a live one is
 * refused with LEDGER_UNAVAILABLE. Returns the function that releases it.
 */
export function acquireLock(path: string): () => void {
  const lockPath = lockPathOf(path);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx');
      try {
        writeSync(fd, `${process.pid}\n`);
      } finally {
        closeSync(fd);
      }
      return () => {
        try {
          if (holderOf(lockPath) === process.pid) unlinkSync(lockPath);
        } catch {
          // already gone
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new ToolgateError(
          'LEDGER_UNAVAILABLE',
          `cannot create the lock file ${lockPath}: ${(error as Error).message}`,
          { cause: error },
        );
      }
    }
    const holder = holderOf(lockPath);
    if (holder === undefined) {
      throw new ToolgateError(
        'LEDGER_UNAVAILABLE',
        `the lock file ${lockPath} holds no pid: a writer is opening ${path} right now, or one crashed ` +
          'while opening it; if no writer is running, delete the lock file',
      );
    }
    if (isRunning(holder)) {
      throw new ToolgateError(
        'LEDGER_UNAVAILABLE',
        `the ledger ${path} is already open for writing by process ${holder}` +
          `${holder === process.pid ? ' (this process)' : ''}; close that writer first ` +
          '(a ledger has one writer at a time)',
      );
    }
    try {
      unlinkSync(lockPath); // stale: its writer is gone
    } catch {
      // another process took it over first; try again
    }
  }
  throw new ToolgateError(
    'LEDGER_UNAVAILABLE',
    `the ledger ${path} is being taken over by another writer; try again`,
  );
}

function holderOf(lockPath: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(lockPath, 'utf8').trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
