import { readdir } from 'node:fs/promises';
import { ToolgateError } from '@toolgate/core';
import picomatch from 'picomatch';
import {
  type ConfinedRoot,
  type DirectoryStep,
  openRoot,
  openSubdirectory,
  walkDirectories,
} from '../confined/index.js';
import type { GlobResult } from '../environment.js';
import { assertGlobPattern, comparePaths, outsideRoot, pathMatcher } from '../paths/index.js';
import { resolveLocalPath } from './local-resolve.js';

/**
 * Regular files under the root matching `pattern`. The walk starts at the pattern's static base
 * (read through symlinks, so it must resolve inside the root) and goes down one directory at a
 * time through descriptors, never through a symbolic link: neither loops nor links leading out
 * are walked, and a directory swapped for a link during the walk is skipped, not followed.
 * Symbolic links themselves are not listed.
 */
export async function globLocal(root: ConfinedRoot, pattern: string): Promise<GlobResult> {
  const checked = assertGlobPattern(pattern);
  const scan = picomatch.scan(checked);
  // A literal pattern names one file: its directory is the base, its name the only candidate.
  const base = scan.isGlob ? scan.base : parentOf(checked);
  const rest = scan.isGlob ? scan.glob : checked.slice(base.length);
  const matches = pathMatcher(checked);
  let start: DirectoryStep;
  try {
    const components = [];
    if (base !== '') {
      const resolved = await resolveLocalPath(root.absolute, base);
      if (!resolved.inside) throw outsideRoot(pattern, resolved.absolute, root.absolute);
      if (resolved.path !== '.') components.push(...resolved.path.split('/'));
    }
    start = await walkDirectories(root, await openRoot(root), components, false);
  } catch (error) {
    // A refusal is reported; a base that is missing, not a directory or changing matches nothing.
    if (ToolgateError.is(error)) throw error;
    return { paths: [] };
  }
  const prefix = base
    .split('/')
    .filter((segment) => segment !== '')
    .join('/');
  const paths: string[] = [];
  const limits = { maxDepth: depthOf(rest), dotDirectories: mentionsDotNames(rest) };
  try {
    await walk({ root, limits, matches, paths }, start, prefix, 1);
  } finally {
    await start.handle.close();
  }
  paths.sort(comparePaths);
  return { paths };
}

/** What one glob's walk reads and fills, the same at every depth. */
interface GlobWalk {
  root: ConfinedRoot;
  limits: { maxDepth: number; dotDirectories: boolean };
  matches: (path: string) => boolean;
  /** The matching paths found so far. */
  paths: string[];
}

async function walk(glob: GlobWalk, directory: DirectoryStep, prefix: string, depth: number): Promise<void> {
  const { root, limits, matches, paths } = glob;
  let entries: Awaited<ReturnType<typeof readEntries>>;
  try {
    entries = await readEntries(directory.through);
  } catch {
    return;
  }
  for (const entry of entries) {
    const path = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isFile()) {
      if (matches(path)) paths.push(path);
      continue;
    }
    if (!entry.isDirectory() || depth >= limits.maxDepth) continue;
    if (entry.name.startsWith('.') && !limits.dotDirectories) continue;
    const child = await openSubdirectory(root, directory, entry.name).catch(() => undefined);
    if (child === undefined) continue;
    try {
      await walk(glob, child, path, depth + 1);
    } finally {
      await child.handle.close();
    }
  }
}

function readEntries(path: string) {
  return readdir(path, { withFileTypes: true });
}

function parentOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '' : path.slice(0, slash + 1);
}

/** How many directory levels below the base a match can lie; unbounded with `**` or alternatives. */
function depthOf(rest: string): number {
  if (rest.includes('**') || /[{(]/.test(rest)) return Number.POSITIVE_INFINITY;
  return rest.split('/').filter((segment) => segment !== '').length;
}

/** With `dot: false` a name starting with `.` matches only a pattern segment that starts with one. */
function mentionsDotNames(rest: string): boolean {
  return /(^|[/{,(|[])\./.test(rest);
}
