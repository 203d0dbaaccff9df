import { type BigIntStats, lstatSync, realpathSync } from 'node:fs';
import { lstat, realpath } from 'node:fs/promises';
import { isInside } from '../paths/index.js';
import type { ConfinedRoot } from './confined-walk.js';

// Where descriptors cannot be resolved (no `/proc/self/fd`), a path is opened by name and checked
// afterwards by these functions. The check follows no symbolic link anywhere: from the root down,
// every directory on the path must be a real directory (lstat) and the last name must be the very
// file or directory opened (same device and inode). The path is resolved before and after those
// steps and must resolve to the same place both times, so a swap still in place, or one made
// between any two of the calls, is noticed. A process that swaps at exactly the right instants
// (a link for the open, a directory for the first resolve and lstat of that directory, a link for
// the last lstat, a directory again for the second resolve) can still pass it: opening by name
// cannot be made race-free without `openat`-like primitives.

/** A file's identity as seen by `lstat` or `fstat`. */
type Identity = Pick<BigIntStats, 'dev' | 'ino'>;

/**
 * Whether `path` (the root's path, then `/`-separated names below it) names, right now and inside
 * `root`, the very file or directory `opened`, with no symbolic link on the way.
 */
export async function namedAsOpened(root: ConfinedRoot, path: string, opened: Identity): Promise<boolean> {
  if (!path.startsWith(root.absolute)) return false;
  const before = await realpath(path).catch(() => undefined);
  if (before === undefined || !isInside(root.absolute, before)) return false;
  const steps = stepsBelow(root, path);
  if (steps.length === 0) return false;
  for (const [index, step] of steps.entries()) {
    const seen = await lstat(step, { bigint: true }).catch(() => undefined);
    if (!matches(seen, opened, index === steps.length - 1)) return false;
  }
  return (await realpath(path).catch(() => undefined)) === before;
}

/** {@link namedAsOpened}, synchronously (for the synchronous tree walk of search). */
export function namedAsOpenedSync(root: ConfinedRoot, path: string, opened: Identity): boolean {
  if (!path.startsWith(root.absolute)) return false;
  try {
    const before = realpathSync(path);
    if (!isInside(root.absolute, before)) return false;
    const steps = stepsBelow(root, path);
    if (steps.length === 0) return false;
    for (const [index, step] of steps.entries()) {
      if (!matches(lstatSync(step, { bigint: true }), opened, index === steps.length - 1)) return false;
    }
    return realpathSync(path) === before;
  } catch {
    return false;
  }
}

/** The paths of every component of `path` below the root, from the root down. */
function stepsBelow(root: ConfinedRoot, path: string): string[] {
  const names = path
    .slice(root.absolute.length)
    .split('/')
    .filter((name) => name !== '');
  return names.map((_, index) => `${root.absolute}/${names.slice(0, index + 1).join('/')}`);
}

function matches(seen: BigIntStats | undefined, opened: Identity, last: boolean): boolean {
  if (seen === undefined) return false;
  if (!last) return seen.isDirectory();
  return seen.dev === opened.dev && seen.ino === opened.ino;
}
