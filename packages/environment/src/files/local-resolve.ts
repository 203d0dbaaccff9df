import { lstat, readlink, realpath } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { ToolgateError } from '@toolgate/core';
import type { ResolvedPath } from '../environment.js';
import { assertPathText, isInside, relativePosix } from '../paths/index.js';

const maxSymlinkHops = 40;

/**
 * Resolves `path` (relative to `root`, or absolute) the way the operating system would reach it:
 * every existing symlink on the way is resolved, a missing tail is checked through its nearest
 * existing parent, and a dangling symlink is followed to where it points (so writing through it is
 * judged by its target). `root` must already be resolved.
 */
export async function resolveLocalPath(root: string, path: string): Promise<ResolvedPath> {
  assertPathText(path);
  const absolute = await resolveExisting(resolve(root, path), path);
  const inside = isInside(root, absolute);
  return { path: inside ? relativePosix(root, absolute) : absolute, absolute, inside };
}

async function resolveExisting(start: string, original: string): Promise<string> {
  let head = start;
  const tail: string[] = [];
  for (let hops = 0; hops <= maxSymlinkHops; ) {
    try {
      const real = await realpath(head);
      return tail.length === 0 ? real : join(real, ...tail.reverse());
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ELOOP') throw symlinkLoop(original);
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
    }
    const stats = await lstat(head).catch(() => undefined);
    if (stats?.isSymbolicLink()) {
      hops++;
      // The link may be replaced between lstat and readlink (the tree is changing): look again.
      const target = await readlink(head).catch(changedMeanwhile);
      const parent = await realpath(dirname(head)).catch(changedMeanwhile);
      if (target !== undefined && parent !== undefined) head = resolve(parent, target);
      continue;
    }
    const parent = dirname(head);
    if (parent === head) return join(head, ...tail.reverse());
    tail.push(basename(head));
    head = parent;
  }
  throw symlinkLoop(original);
}

function changedMeanwhile(error: NodeJS.ErrnoException): undefined {
  if (error.code === 'ENOENT' || error.code === 'EINVAL' || error.code === 'ENOTDIR') return undefined;
  throw error;
}

function symlinkLoop(path: string): ToolgateError {
  return new ToolgateError(
    'INVALID_PATH',
    `the path ${JSON.stringify(path)} goes through a loop of symbolic links; use a path without one`,
  );
}
