import { readFileSync, realpathSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { ToolgateError } from '@toolgate/core';

/**
 * The lock file that names a ledger's writer, beside the ledger's real path (symlinks resolved):
 * `<real path>.lock`. It only informs (who holds the ledger); the lock itself is the OS lock on the
 * ledger file.
 */
export function lockPathOf(realPath: string): string {
  return `${realPath}.lock`;
}

/**
 * The byte the writer's lock covers: one far past any ledger's end, so the lock never overlaps the
 * records (Windows byte-range locks are mandatory: readers of the records are never blocked).
 */
const lockedByte = 2 ** 62;

interface NativeLocks {
  tryLock(fd: number, offset: number, length: number): boolean;
  unlock(fd: number, offset: number, length: number): void;
}

let native: NativeLocks | Error | undefined;

function nativeLocks(path: string): NativeLocks {
  if (native === undefined) {
    try {
      native = createRequire(import.meta.url)('fs-native-extensions') as NativeLocks;
    } catch (error) {
      native = error as Error;
    }
  }
  if (native instanceof Error) {
    throw new ToolgateError(
      'LEDGER_UNAVAILABLE',
      `cannot lock the ledger ${path} for writing: the OS file lock (fs-native-extensions) does not load ` +
        `on this platform (${native.message}); a ledger is only opened for writing under that lock`,
      { cause: native },
    );
  }
  return native;
}

/**
 * Takes the writer's lock on an open ledger file: an exclusive OS lock on the file itself
 * (Linux: an open-file-description `fcntl` lock; macOS: `flock`; Windows: `LockFileEx`). The kernel
 * decides atomically, and releases the lock when the descriptor closes or the process dies, so
 * there is never a stale lock to take over, and every alias of the file (a symlink, a hard link)
 * shares it. A second writer, in this process or another, is refused with LEDGER_UNAVAILABLE naming
 * the holder. Returns the function that releases it (before the descriptor is closed).
 */
export function lockLedger(fd: number, path: string): () => void {
  const locks = nativeLocks(path);
  const realPath = realpathSync(path);
  const lockPath = lockPathOf(realPath);
  let locked: boolean;
  try {
    locked = locks.tryLock(fd, lockedByte, 1);
  } catch (error) {
    throw new ToolgateError(
      'LEDGER_UNAVAILABLE',
      `cannot lock the ledger ${path} for writing: ${(error as Error).message}`,
      { cause: error },
    );
  }
  if (!locked) {
    const holder = holderOf(lockPath);
    const who =
      holder === undefined
        ? 'another writer'
        : `process ${holder}${holder === process.pid ? ' (this process)' : ''}`;
    const alias = realPath === path ? '' : ` (the real path of ${path})`;
    throw new ToolgateError(
      'LEDGER_UNAVAILABLE',
      `the ledger ${realPath}${alias} is already open for writing by ${who}; close that writer first ` +
        '(a ledger has one writer at a time)',
    );
  }
  // Holding the lock, whatever the lock file says is stale: name ourselves, whole or not at all.
  const scratch = `${lockPath}.${process.pid}.${Date.now()}`;
  try {
    writeFileSync(scratch, `${process.pid}\n`);
    renameSync(scratch, lockPath);
  } catch {
    // The note is only informative; the OS lock holds either way.
    tryUnlink(scratch);
  }
  return () => {
    if (holderOf(lockPath) === process.pid) tryUnlink(lockPath);
    try {
      locks.unlock(fd, lockedByte, 1);
    } catch {
      // closing the descriptor releases it anyway
    }
  };
}

function tryUnlink(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}

function holderOf(lockPath: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(lockPath, 'utf8').trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}
