import { randomBytes } from 'node:crypto';
import { open, readFile, rename, stat, unlink } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

/** How long a writer waits for another process's lock on a policy file before it gives up. */
const lockWaitMs = 30_000;
/** A lock left by a process that is gone is taken over once it is this old (its writer died mid-write). */
const staleLockMs = 2_000;

/**
 * Rewrites a policy file as `change` says, atomically and one writer at a time across processes:
 * takes `FILE.lock` (created exclusively; another process's lock is waited for, one left by a
 * process that is gone is taken over), reads the file, writes what `change` makes of its text to a
 * temporary file beside it (the same mode) and renames it over the file. The file is read again
 * just before the rename; if it changed (an edit by hand: an editor takes no lock), `change` is
 * applied to the new text instead (three tries), so no edit is lost.
 */
export async function rewritePolicyFile(
  file: string,
  change: (text: string) => Promise<string>,
): Promise<void> {
  const release = await lockFile(`${file}.lock`);
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      const text = await readFile(file, 'utf8');
      const next = await change(text);
      const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
      const handle = await open(temporary, 'wx', (await stat(file)).mode & 0o777);
      try {
        await handle.writeFile(next);
        await handle.sync();
      } finally {
        await handle.close();
      }
      try {
        if ((await readFile(file, 'utf8')) !== text) continue; // changed meanwhile: change the new text
        await rename(temporary, file);
        return;
      } finally {
        await unlink(temporary).catch(() => undefined); // renamed away, or abandoned
      }
    }
    throw new Error(`${file} kept changing while it was written; answer again`);
  } finally {
    await release();
  }
}

async function lockFile(lock: string): Promise<() => Promise<void>> {
  const until = Date.now() + lockWaitMs;
  for (let wait = 5; ; wait = Math.min(wait * 2, 100)) {
    try {
      const handle = await open(lock, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
      return () => unlink(lock).catch(() => undefined);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = await readFile(lock, 'utf8').catch(() => '');
    if (await isStale(lock, holder)) {
      await unlink(lock).catch(() => undefined);
      continue;
    }
    if (Date.now() > until) {
      throw new Error(
        `${lock} has been held by process ${holder || '(unknown)'} for over ${lockWaitMs / 1000} s; answer again, or remove ${lock} if no toolgate is writing the file`,
      );
    }
    await sleep(wait);
  }
}

/** A lock whose process is gone and that is old enough not to be a new writer's, just made. */
async function isStale(lock: string, holder: string): Promise<boolean> {
  const pid = Number(holder);
  if (!Number.isSafeInteger(pid) || pid < 1) return (await ageOf(lock)) > staleLockMs; // half-written
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') return false; // alive, another user's
  }
  return (await ageOf(lock)) > staleLockMs;
}

async function ageOf(path: string): Promise<number> {
  try {
    return Date.now() - (await stat(path)).mtimeMs;
  } catch {
    return 0;
  }
}
