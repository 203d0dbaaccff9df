import { confinedFiles } from './confined-tree.js';
import type { ConfinedRoot } from './confined-walk.js';

/** The files a search may read once `withhold` has been asked about each, and how many it held back. */
export interface SearchAllowance {
  /** Workspace-relative paths of the files the glob selected and `withhold` let through. */
  readonly allowed: ReadonlySet<string>;
  /** The paths `withhold` held back, sorted. */
  readonly withheld: readonly string[];
}

/**
 * Asks `withhold` about every regular file under the root that `include` (the search's glob)
 * selects, walking the tree as the JavaScript engine does (through descriptors, `.git` skipped,
 * links never followed) but opening no file: only names are read. A search then opens only
 * `allowed` files, so a file created after this walk is not searched either (it is not allowed).
 */
export function searchAllowance(
  root: ConfinedRoot,
  include: (path: string) => boolean,
  withhold: (path: string) => boolean,
): SearchAllowance {
  const allowed = new Set<string>();
  const withheld: string[] = [];
  const sort = (path: string) => {
    if (!include(path)) return false;
    if (withhold(path)) withheld.push(path);
    else allowed.add(path);
    return false; // never opened here
  };
  for (const _file of confinedFiles(root, { skipDirectories: new Set(['.git']), include: sort })) {
    // `sort` declines every file, so the walk yields none
  }
  return { allowed, withheld: withheld.sort() };
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
