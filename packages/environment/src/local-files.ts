import { constants } from 'node:fs';
import { lstat, mkdir, open, readdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ToolgateError } from '@toolgate/core';
import type {
  DirectoryEntry,
  DirectoryListing,
  EntryType,
  FileContent,
  ReadFileOptions,
  ResolvedPath,
  WriteResult,
} from './environment.js';
import { fileError } from './fs-errors.js';
import { selectLines } from './lines.js';

const noFollow = constants.O_NOFOLLOW ?? 0;

/** Reads lines of a confined file. The last component is opened without following a symlink. */
export async function readLocalFile(
  target: ResolvedPath,
  options: ReadFileOptions | undefined,
  maxBytes: number,
): Promise<FileContent> {
  let text: string;
  try {
    const handle = await open(target.absolute, constants.O_RDONLY | constants.O_NONBLOCK | noFollow);
    try {
      const stats = await handle.stat();
      if (stats.isDirectory()) {
        throw new ToolgateError(
          'INVALID_PATH',
          `cannot read ${JSON.stringify(target.path)}: it is a directory; use list_dir`,
        );
      }
      if (!stats.isFile()) {
        throw new ToolgateError(
          'INVALID_PATH',
          `cannot read ${JSON.stringify(target.path)}: not a regular file`,
        );
      }
      if (stats.size > maxBytes) {
        throw new ToolgateError(
          'INVALID_PATH',
          `cannot read ${JSON.stringify(target.path)}: it is ${stats.size} bytes, over the ${maxBytes}-byte limit`,
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
 * Writes a confined file, creating its missing parents. The file is opened with `O_NOFOLLOW`, so
 * a symlink put in its place after the check is refused rather than written through.
 */
export async function writeLocalFile(target: ResolvedPath, content: string): Promise<WriteResult> {
  try {
    const existed = await lstat(target.absolute).then(
      () => true,
      () => false,
    );
    await mkdir(dirname(target.absolute), { recursive: true });
    const handle = await open(
      target.absolute,
      constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | noFollow,
      0o666,
    );
    const bytes = Buffer.from(content, 'utf8');
    try {
      await handle.writeFile(bytes);
    } finally {
      await handle.close();
    }
    return { path: target.path, bytes: bytes.length, created: !existed };
  } catch (error) {
    throw fileError(error, target.path, 'write');
  }
}

/** Lists a confined directory; symlinks are reported, not followed. */
export async function listLocalDirectory(target: ResolvedPath): Promise<DirectoryListing> {
  try {
    const dirents = await readdir(target.absolute, { withFileTypes: true });
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
