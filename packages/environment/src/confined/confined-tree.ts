import { closeSync, constants, fstatSync, openSync, readdirSync } from 'node:fs';
import type { ConfinedRoot } from './confined-walk.js';
import { namedAsOpenedSync } from './verify-by-name.js';

const directoryFlags = constants.O_RDONLY | (constants.O_DIRECTORY ?? 0) | (constants.O_NOFOLLOW ?? 0);
const fileFlags = constants.O_RDONLY | constants.O_NONBLOCK | (constants.O_NOFOLLOW ?? 0);

/** One regular file met by {@link confinedFiles}, open for reading until the walk moves on. */
export interface ConfinedFile {
  /** Workspace-relative POSIX path. */
  readonly path: string;
  /** An open descriptor on the file; the walk closes it when it moves on. */
  readonly descriptor: number;
  /** The file's size when it was opened. */
  readonly size: number;
}

/** Which files {@link confinedFiles} yields. */
export interface ConfinedTreeOptions {
  /** Directory names never entered (`.git` for search). */
  readonly skipDirectories?: ReadonlySet<string>;
  /** Workspace-relative paths of files to open; others are not opened at all. */
  readonly include?: (path: string) => boolean;
  /** Yield regular files with more than one hard link too. Default false. */
  readonly allowHardLinks?: boolean;
}

/**
 * Walks every regular file under the root, synchronously, the way `readFile` reaches one: from a
 * descriptor on the root, one directory at a time, each child opened with `O_NOFOLLOW` through
 * its parent's descriptor (`/proc/self/fd/N/<name>` on Linux). Symbolic links are never followed,
 * so a directory swapped for a link during the walk is skipped, and every file yielded is one that
 * lies inside the root. Files with several hard links are left out unless allowed.
 *
 * For the JavaScript search engine: read each file through `descriptor` (e.g. `readSync`), never
 * by its path. The generator may be paused between files (to yield to the event loop).
 */
export function* confinedFiles(
  root: ConfinedRoot,
  options: ConfinedTreeOptions = {},
): Generator<ConfinedFile> {
  const rootDescriptor = openSync(root.absolute, directoryFlags);
  const rootStats = fstatSync(rootDescriptor);
  if (rootStats.dev !== root.device || rootStats.ino !== root.inode) {
    closeSync(rootDescriptor);
    return;
  }
  const open: number[] = [rootDescriptor];
  try {
    yield* visit(
      { root, options, open },
      { descriptor: rootDescriptor, byName: root.absolute, relative: '' },
    );
  } finally {
    for (const descriptor of open) closeSync(descriptor);
  }
}

/** What one tree's walk reads and holds, the same in every directory. */
interface TreeWalk {
  root: ConfinedRoot;
  options: ConfinedTreeOptions;
  /** The descriptors open now, closed when the walk ends however it ends. */
  open: number[];
}

/** One directory of the walk: its descriptor, its path by name, its path relative to the root. */
interface TreePlace {
  descriptor: number;
  byName: string;
  relative: string;
}

function* visit(tree: TreeWalk, { descriptor, byName, relative }: TreePlace): Generator<ConfinedFile> {
  const { root, options, open } = tree;
  const through = root.throughDescriptors ? `/proc/self/fd/${descriptor}` : byName;
  let entries: ReturnType<typeof readEntries>;
  try {
    entries = readEntries(through);
  } catch {
    return;
  }
  for (const entry of entries) {
    const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
    const child = `${through}/${entry.name}`;
    if (entry.isDirectory()) {
      if (options.skipDirectories?.has(entry.name)) continue;
      const opened = tryOpen(root, child, directoryFlags);
      if (opened === undefined) continue;
      open.push(opened);
      try {
        yield* visit(tree, { descriptor: opened, byName: child, relative: path });
      } finally {
        open.pop();
        closeSync(opened);
      }
    } else if (entry.isFile() && (options.include?.(path) ?? true)) {
      const opened = tryOpen(root, child, fileFlags);
      if (opened === undefined) continue;
      try {
        const stats = fstatSync(opened);
        if (!stats.isFile()) continue;
        if (stats.nlink > 1 && options.allowHardLinks !== true) continue;
        yield { path, descriptor: opened, size: stats.size };
      } finally {
        closeSync(opened);
      }
    }
  }
}

function readEntries(path: string) {
  return readdirSync(path, { withFileTypes: true });
}

/**
 * Opens `path` without following a final link. Where descriptors cannot be resolved, the name is
 * checked after the open to lead, inside the root and through no link, to the very file opened
 * (see `verify-by-name.ts`).
 */
function tryOpen(root: ConfinedRoot, path: string, flags: number): number | undefined {
  let descriptor: number;
  try {
    descriptor = openSync(path, flags);
  } catch {
    return undefined;
  }
  if (root.throughDescriptors) return descriptor;
  let verified = false;
  try {
    verified = namedAsOpenedSync(root, path, fstatSync(descriptor, { bigint: true }));
  } catch {
    // Gone or changed meanwhile: refused below.
  }
  if (verified) return descriptor;
  closeSync(descriptor);
  return undefined;
}
