import { constants, type Dirent } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { readdir } from 'node:fs/promises';
import { ToolgateError } from '@toolgate/core';
import {
  type ConfinedRoot,
  type DirectoryStep,
  openChild,
  openRoot,
  PathChangedError,
  walkDirectories,
} from '../confined/index.js';
import type {
  DirectoryEntry,
  DirectoryListing,
  EntryType,
  FileContent,
  ReadFileOptions,
  ResolvedPath,
  WriteResult,
} from '../environment.js';
import { fileError } from './fs-errors.js';
import { refuseHardLinks } from './hard-links.js';
import { selectLines } from './lines.js';

/** How a confined file is read: the size cap, and whether a file with several hard links may be. */
export interface ReadRules {
  readonly maxBytes: number;
  readonly allowHardLinkedReads: boolean;
}

/**
 * Reads lines of a confined file. The file is reached from the root one directory at a time
 * without following a symbolic link (see `confined-walk.ts`), so a directory swapped for a link
 * during the call cannot redirect the read.
 */
export async function readLocalFile(
  root: ConfinedRoot,
  target: ResolvedPath,
  options: ReadFileOptions | undefined,
  rules: ReadRules,
): Promise<FileContent> {
  let text: string;
  try {
    const { parents, name } = splitPath(target);
    if (name === undefined) throw isDirectory(target.path, 'read');
    const parent = await walkDirectories(root, await openRoot(root), parents, false);
    let handle: FileHandle;
    try {
      handle = await openChild(root, parent, name, { flags: constants.O_RDONLY | constants.O_NONBLOCK });
    } finally {
      await parent.handle.close();
    }
    try {
      const stats = await handle.stat();
      if (stats.isDirectory()) throw isDirectory(target.path, 'read');
      if (!stats.isFile()) {
        throw new ToolgateError(
          'INVALID_PATH',
          `cannot read ${JSON.stringify(target.path)}: not a regular file`,
        );
      }
      if (!rules.allowHardLinkedReads) refuseHardLinks(stats, target.path, 'read');
      if (stats.size > rules.maxBytes) {
        throw new ToolgateError(
          'INVALID_PATH',
          `cannot read ${JSON.stringify(target.path)}: it is ${stats.size} bytes, over the ${rules.maxBytes}-byte limit`,
        );
      }
      text = await handle.readFile({ encoding: 'utf8' });
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw fileError(error, target.path, 'read');
  }
  return selectLines(target.path, text, options);
}

/**
 * Writes a confined file, creating its missing parents inside the root. Parents are made and
 * opened through their own parent's descriptor, and the file is created with `O_EXCL` or opened
 * with `O_NOFOLLOW`, so nothing is ever created or written outside the root even while the tree
 * changes. An existing file is truncated only after it is checked: a regular file with one link.
 */
export async function writeLocalFile(
  root: ConfinedRoot,
  target: ResolvedPath,
  content: string,
): Promise<WriteResult> {
  try {
    const { parents, name } = splitPath(target);
    if (name === undefined) throw isDirectory(target.path, 'write');
    const parent = await walkDirectories(root, await openRoot(root), parents, true);
    let opened: { handle: FileHandle; created: boolean };
    try {
      opened = await openForWriting(root, parent, name);
    } finally {
      await parent.handle.close();
    }
    const bytes = Buffer.from(content, 'utf8');
    const { handle, created } = opened;
    try {
      if (!created) {
        const stats = await handle.stat();
        if (!stats.isFile()) {
          throw new ToolgateError(
            'INVALID_PATH',
            `cannot write ${JSON.stringify(target.path)}: not a regular file`,
          );
        }
        refuseHardLinks(stats, target.path, 'write');
        await handle.truncate(0);
      }
      await handle.writeFile(bytes);
    } finally {
      await handle.close();
    }
    return { path: target.path, bytes: bytes.length, created };
  } catch (error) {
    throw fileError(error, target.path, 'write');
  }
}

/** Lists a confined directory, reached like a file is; symlinks are reported, not followed. */
export async function listLocalDirectory(
  root: ConfinedRoot,
  target: ResolvedPath,
): Promise<DirectoryListing> {
  try {
    const { parents, name } = splitPath(target);
    const directory = await walkDirectories(
      root,
      await openRoot(root),
      name === undefined ? parents : [...parents, name],
      false,
    );
    let dirents: Dirent[];
    try {
      dirents = await readdir(directory.through, { withFileTypes: true });
    } finally {
      await directory.handle.close();
    }
    const entries: DirectoryEntry[] = dirents.map((dirent) => ({
      name: dirent.name,
      type: entryType(dirent),
    }));
    entries.sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
    return { path: target.path, entries };
  } catch (error) {
    throw fileError(error, target.path, 'list');
  }
}

async function openForWriting(
  root: ConfinedRoot,
  parent: DirectoryStep,
  name: string,
): Promise<{ handle: FileHandle; created: boolean }> {
  const { O_WRONLY, O_CREAT, O_EXCL, O_NONBLOCK } = constants;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return {
        handle: await openChild(root, parent, name, { flags: O_WRONLY | O_CREAT | O_EXCL, mode: 0o666 }),
        created: true,
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    try {
      return {
        handle: await openChild(root, parent, name, { flags: O_WRONLY | O_NONBLOCK }),
        created: false,
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  throw new PathChangedError(parent.relative === '.' ? name : `${parent.relative}/${name}`);
}

/** The directories above a workspace-relative path and its last name (none for the root). */
function splitPath(target: ResolvedPath): { parents: string[]; name: string | undefined } {
  if (target.path === '.') return { parents: [], name: undefined };
  const components = target.path.split('/');
  const name = components.pop();
  return { parents: components, name };
}

function isDirectory(path: string, action: string): ToolgateError {
  return new ToolgateError(
    'INVALID_PATH',
    `cannot ${action} ${JSON.stringify(path)}: it is a directory${action === 'read' ? '; use list_dir' : ''}`,
  );
}

function entryType(dirent: {
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}): EntryType {
  if (dirent.isSymbolicLink()) return 'symlink';
  if (dirent.isDirectory()) return 'directory';
  if (dirent.isFile()) return 'file';
  return 'other';
}
