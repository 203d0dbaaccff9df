import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ConfinedRoot } from '../confined/index.js';

/** The files a search may read once `withhold` has been asked about each, and how many it held back. */
export interface SearchAllowance {
  /** Workspace-relative paths of the files the glob selected and `withhold` let through. */
  readonly allowed: ReadonlySet<string>;
  /** The paths `withhold` held back, sorted. */
  readonly withheld: readonly string[];
}

/**
 * Asks `withhold` about every regular file under the root that `include` (the search's glob)
 * selects. Only names are read (directories listed one at a time, without blocking the event
 * loop; `.git` skipped; links never followed), no file is opened. The engines then open only
 * `allowed` files through their own confined walks: a name this walk was misled about, or a file
 * created after it, is simply not searched.
 */
export async function searchAllowance(
  root: ConfinedRoot,
  include: (path: string) => boolean,
  withhold: (path: string) => boolean,
): Promise<SearchAllowance> {
  const allowed = new Set<string>();
  const withheld: string[] = [];
  const directories = [''];
  for (let directory = directories.pop(); directory !== undefined; directory = directories.pop()) {
    let entries: Awaited<ReturnType<typeof listNames>>;
    try {
      entries = await listNames(join(root.absolute, directory));
    } catch {
      continue; // gone or unreadable: nothing in it is searched either
    }
    for (const entry of entries) {
      const path = directory === '' ? entry.name : `${directory}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name !== '.git') directories.push(path);
      } else if (entry.isFile() && include(path)) {
        if (withhold(path)) withheld.push(path);
        else allowed.add(path);
      }
    }
  }
  return { allowed, withheld: withheld.sort() };
}

function listNames(path: string) {
  return readdir(path, { withFileTypes: true });
}

/** Files past this many withheld ones are not listed to ripgrep; the JavaScript engine searches instead. */
export const maxRipgrepExclusions = 256;

/**
 * ripgrep arguments that keep it from opening each withheld file: `--glob=!/<path>`, anchored at
 * the search root, glob characters escaped. Given last, they take precedence over the search glob.
 */
export function ripgrepExclusions(withheld: readonly string[]): string[] {
  return withheld.map((path) => `--glob=!/${path.replace(/[\\*?[\]{}!]/g, '\\$&')}`);
}
