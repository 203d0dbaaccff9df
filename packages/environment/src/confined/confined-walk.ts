import { closeSync, constants, lstatSync, openSync, type Stats } from 'node:fs';
import { type FileHandle, lstat, mkdir, open, rmdir, unlink } from 'node:fs/promises';
import { ToolgateError } from '@toolgate/core';
import { namedAsOpened } from './verify-by-name.js';

const noFollow = constants.O_NOFOLLOW ?? 0;
const directoryOnly = constants.O_DIRECTORY ?? 0;

/**
 * The root an environment is confined to, as it was when the environment was built: its resolved
 * path, its device and inode (so a root swapped for another directory is noticed), and whether
 * this system lets a path be resolved through an open descriptor (`/proc/self/fd/N/…` on Linux).
 */
export interface ConfinedRoot {
  readonly absolute: string;
  readonly device: number;
  readonly inode: number;
  readonly throughDescriptors: boolean;
}

/**
 * An open directory on the way to a file, with the path by which its children are reached. On
 * Linux that path is `/proc/self/fd/N`: the kernel resolves it through the descriptor, never by
 * name, so renaming or replacing any directory above it cannot redirect what is opened next.
 */
export interface DirectoryStep {
  readonly handle: FileHandle;
  /** The path through which this directory's children are reached. */
  readonly through: string;
  /** The workspace-relative path of this directory, for messages. */
  readonly relative: string;
}

/**
 * Raised when a component of an already-resolved path turned out to be a symbolic link (or kept
 * vanishing) when it was opened: something changed the tree between the check and the open. The
 * caller resolves the path again and retries, or gives up with a clear error.
 */
export class PathChangedError extends Error {
  constructor(readonly component: string) {
    super(`"${component}" changed (a symbolic link appeared, or it was replaced) while it was being opened`);
  }
}

/** The path through which `step`'s child `name` is reached without resolving the names above it. */
export function childOf(step: DirectoryStep, name: string): string {
  return `${step.through}/${name}`;
}

/** Describes the root once, when an environment is built (synchronously: constructors are). */
export function describeRoot(absolute: string, stats: Stats): ConfinedRoot {
  let throughDescriptors = false;
  if (process.platform === 'linux') {
    let descriptor: number | undefined;
    try {
      descriptor = openSync(absolute, constants.O_RDONLY | directoryOnly);
      const seen = lstatSync(`/proc/self/fd/${descriptor}/.`);
      throughDescriptors = seen.ino === stats.ino && seen.dev === stats.dev;
    } catch {
      throughDescriptors = false;
    } finally {
      if (descriptor !== undefined) closeSync(descriptor);
    }
  }
  return { absolute, device: stats.dev, inode: stats.ino, throughDescriptors };
}

/** Opens the root, refusing it if it is no longer the directory the environment was built on. */
export async function openRoot(root: ConfinedRoot): Promise<DirectoryStep> {
  const handle = await open(root.absolute, constants.O_RDONLY | directoryOnly | noFollow);
  const stats = await handle.stat().catch(async (error: unknown) => {
    await handle.close();
    throw error;
  });
  if (stats.dev !== root.device || stats.ino !== root.inode) {
    await handle.close();
    throw new ToolgateError(
      'PATH_OUTSIDE_ROOT',
      `the workspace root ${JSON.stringify(root.absolute)} was replaced by another directory after the ` +
        'environment was created; create a new environment on the intended root',
    );
  }
  return { handle, through: root.throughDescriptors ? descriptorPath(handle) : root.absolute, relative: '.' };
}

/**
 * Walks from `start` down `components` one directory at a time, never following a symbolic link
 * (each step is opened with `O_NOFOLLOW | O_DIRECTORY` through its parent's descriptor). With
 * `create`, a missing directory is made inside its parent's descriptor. Every step but the last
 * is closed; the caller closes the one returned. `start` is consumed (closed or returned).
 */
export async function walkDirectories(
  root: ConfinedRoot,
  start: DirectoryStep,
  components: readonly string[],
  create: boolean,
): Promise<DirectoryStep> {
  let step = start;
  try {
    for (const name of components) {
      const next = await openSubdirectory(root, step, name, create);
      await step.handle.close();
      step = next;
    }
    return step;
  } catch (error) {
    await step.handle.close();
    throw error;
  }
}

/**
 * Opens the directory `name` inside `parent` without following a symbolic link (one that appeared
 * there is reported as {@link PathChangedError}); with `create`, makes it first if it is missing.
 */
export async function openSubdirectory(
  root: ConfinedRoot,
  parent: DirectoryStep,
  name: string,
  create = false,
): Promise<DirectoryStep> {
  const path = childOf(parent, name);
  const relative = parent.relative === '.' ? name : `${parent.relative}/${name}`;
  let opened: { handle: FileHandle; made: boolean };
  try {
    opened = await openDirectory(path, relative, create);
  } catch (error) {
    throw await explainOpenError(error, path, relative);
  }
  const { handle, made } = opened;
  if (!root.throughDescriptors)
    await verifyByName(root, handle, { path, relative, created: made ? 'directory' : undefined });
  return { handle, through: root.throughDescriptors ? descriptorPath(handle) : path, relative };
}

/**
 * Opens `name` inside `parent` with `flags` plus `O_NOFOLLOW`, so a symbolic link that appeared
 * there is refused (as {@link PathChangedError}) instead of followed.
 */
export async function openChild(
  root: ConfinedRoot,
  parent: DirectoryStep,
  name: string,
  { flags, mode }: { flags: number; mode?: number },
): Promise<FileHandle> {
  const path = childOf(parent, name);
  const relative = parent.relative === '.' ? name : `${parent.relative}/${name}`;
  let handle: FileHandle;
  try {
    handle = await open(path, flags | noFollow, mode);
  } catch (error) {
    throw await explainOpenError(error, path, relative);
  }
  if (!root.throughDescriptors) {
    const created = (flags & constants.O_EXCL) !== 0 ? 'file' : undefined;
    await verifyByName(root, handle, { path, relative, created });
  }
  return handle;
}

/**
 * Where descriptors cannot be resolved (no `/proc/self/fd`), a step opened by name is checked
 * after the open: from the root down, no component may be a symbolic link and the name must lead
 * to the very file or directory opened (see `verify-by-name.ts`, which also says what this cannot
 * catch). Otherwise the descriptor is closed, a file or directory this call just created is removed
 * if it can still be found by its name, and the tree is reported as changed.
 */
async function verifyByName(
  root: ConfinedRoot,
  handle: FileHandle,
  { path, relative, created }: { path: string; relative: string; created: 'file' | 'directory' | undefined },
): Promise<void> {
  const opened = await handle.stat({ bigint: true });
  if (await namedAsOpened(root, path, opened)) return;
  await handle.close();
  if (created !== undefined) {
    const now = await lstat(path, { bigint: true }).catch(() => undefined);
    if (now !== undefined && now.dev === opened.dev && now.ino === opened.ino) {
      await (created === 'file' ? unlink(path) : rmdir(path)).catch(() => {});
    }
  }
  throw new PathChangedError(relative);
}

async function openDirectory(
  path: string,
  relative: string,
  create: boolean,
): Promise<{ handle: FileHandle; made: boolean }> {
  const flags = constants.O_RDONLY | directoryOnly | noFollow;
  try {
    return { handle: await open(path, flags), made: false };
  } catch (error) {
    if (!create || (error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const made = await mkdir(path).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
      return false;
    },
  );
  const handle = await open(path, flags).catch((error: unknown) => {
    throw (error as NodeJS.ErrnoException).code === 'ENOENT' ? new PathChangedError(relative) : error;
  });
  return { handle, made };
}

/**
 * A symlink where a resolved path had none means the tree changed under us. `ENOTDIR` (what
 * `O_DIRECTORY | O_NOFOLLOW` gives for a link) and `EEXIST` (what `O_EXCL` gives) are a change too
 * unless the entry is still there and really is a file or a directory respectively.
 */
async function explainOpenError(error: unknown, path: string, relative: string): Promise<unknown> {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ELOOP') return new PathChangedError(relative);
  if (code === 'ENOTDIR' || code === 'EEXIST') {
    const stats = await lstat(path).catch(() => undefined);
    if (stats === undefined || stats.isSymbolicLink()) return new PathChangedError(relative);
    if (code === 'ENOTDIR' && stats.isDirectory()) return new PathChangedError(relative);
  }
  return error;
}

function descriptorPath(handle: FileHandle): string {
  return `/proc/self/fd/${handle.fd}`;
}
