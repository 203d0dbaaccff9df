import { constants } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import {
  type ConfinedRoot,
  type DirectoryStep,
  openChild,
  openRoot,
  openSubdirectory,
} from '../confined/index.js';
import type { MatchCollector } from './search-collector.js';

/** One line ripgrep reported: its number and its bytes, without the line end. */
export interface ReportedLine {
  readonly line: number;
  readonly text: Buffer;
}

const concurrency = 8;

/**
 * Checks what ripgrep reports against the files themselves. ripgrep walks the tree by name, so a
 * directory swapped for a link leading out while it runs can make it read a file outside the root;
 * nothing outside the process can stop that. Instead every reported line is checked here: the file
 * is opened the way `readFile` opens one (from a descriptor on the root, one directory at a time,
 * never through a symbolic link; a file with several hard links refused unless allowed), read once,
 * and line N must hold exactly the reported bytes. Only lines that pass reach the collector; the
 * others are counted in {@link RipgrepVerifier.unverified}. So whatever ripgrep read, what the
 * search returns is content of files inside the root.
 */
export class RipgrepVerifier {
  /** Reported lines that could not be verified, and were dropped. */
  unverified = 0;
  readonly #queue: { path: string; lines: ReportedLine[] }[] = [];
  #active = 0;
  #cancelled = false;
  #closing = false;
  #idle: (() => void)[] = [];
  /** The root, opened (and checked to be the environment's root) once per search. */
  #root: Promise<DirectoryStep> | undefined;

  constructor(
    readonly root: ConfinedRoot,
    readonly allowHardLinks: boolean,
    readonly collector: MatchCollector,
  ) {}

  /** Called whenever a file is done and the backlog is small (to resume reading ripgrep's output). */
  onDrained: () => void = () => {};

  /** Files waiting to be verified, or being verified. */
  get backlog(): number {
    return this.#queue.length + this.#active;
  }

  /** Queues one file's reported lines (in ripgrep's order: ascending line numbers). */
  add(path: string, lines: ReportedLine[]): void {
    if (lines.length === 0 || this.#cancelled) return;
    this.#queue.push({ path, lines });
    this.#pump();
  }

  /** Resolves once every queued file has been verified. */
  done(): Promise<void> {
    if (this.backlog === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  /** Drops what is still queued (the search is over). */
  cancel(): void {
    this.#cancelled = true;
    this.#queue.length = 0;
  }

  /** Releases the root descriptor once no file is being verified any more. Call it once, at the end. */
  close(): void {
    this.#closing = true;
    this.#closeIfIdle();
  }

  #closeIfIdle(): void {
    if (!this.#closing || this.#active > 0 || this.#root === undefined) return;
    const root = this.#root;
    this.#root = undefined;
    void root.then(
      (step) => step.handle.close(),
      () => {},
    );
  }

  #pump(): void {
    while (this.#active < concurrency && this.#queue.length > 0) {
      const next = this.#queue.shift()!;
      this.#active++;
      void this.#verify(next.path, next.lines).finally(() => {
        this.#active--;
        if (this.backlog < concurrency * 4) this.onDrained();
        this.#pump();
        if (this.backlog === 0) for (const resolve of this.#idle.splice(0)) resolve();
        this.#closeIfIdle();
      });
    }
  }

  async #verify(path: string, lines: ReportedLine[]): Promise<void> {
    this.#root ??= openRoot(this.root);
    const bytes = await readConfined(this.root, this.#root, path, this.allowHardLinks);
    if (this.#cancelled) return;
    // A NUL byte anywhere makes a file binary, which no engine searches.
    if (bytes === undefined || bytes.indexOf(0) !== -1) {
      this.unverified += lines.length;
      return;
    }
    let lineNumber = 1;
    let start = 0;
    for (const reported of lines) {
      while (start !== -1 && lineNumber < reported.line) {
        const newline = bytes.indexOf(10, start);
        start = newline === -1 ? -1 : newline + 1;
        lineNumber++;
      }
      if (start === -1 || start >= bytes.length || lineNumber !== reported.line) {
        this.unverified++;
        continue;
      }
      let end = bytes.indexOf(10, start);
      if (end === -1) end = bytes.length;
      if (bytes.subarray(start, end).equals(reported.text))
        this.collector.add(path, reported.line, reported.text.toString('utf8'));
      else this.unverified++;
    }
  }
}

/**
 * The bytes of the regular file at the workspace-relative `path`, opened without following any
 * symbolic link from the descriptor on the root (one directory at a time, as `readFile` does);
 * undefined when it cannot be opened that way, is not a regular file, or has several hard links
 * (unless allowed). The root step is shared and left open.
 */
async function readConfined(
  root: ConfinedRoot,
  rootStep: Promise<DirectoryStep>,
  path: string,
  allowHardLinks: boolean,
): Promise<Buffer | undefined> {
  const components = path.split('/');
  if (components.some((component) => component === '' || component === '.' || component === '..'))
    return undefined;
  const name = components.pop()!;
  try {
    const start = await rootStep;
    let parent = start;
    let handle: FileHandle;
    try {
      for (const component of components) {
        const next = await openSubdirectory(root, parent, component);
        if (parent !== start) await parent.handle.close();
        parent = next;
      }
      handle = await openChild(root, parent, name, { flags: constants.O_RDONLY | constants.O_NONBLOCK });
    } finally {
      if (parent !== start) await parent.handle.close();
    }
    try {
      const stats = await handle.stat();
      if (!stats.isFile() || (stats.nlink > 1 && !allowHardLinks)) return undefined;
      return await readAll(handle, stats.size);
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
}

/** Reads a file from its start: `size` bytes in one read when it has not changed, more if it grew. */
async function readAll(handle: FileHandle, size: number): Promise<Buffer> {
  let bytes = Buffer.allocUnsafe(size + 1);
  let filled = 0;
  for (;;) {
    if (filled === bytes.length) {
      const larger = Buffer.allocUnsafe(bytes.length * 2);
      bytes.copy(larger, 0, 0, filled);
      bytes = larger;
    }
    const { bytesRead } = await handle.read(bytes, filled, bytes.length - filled, filled);
    if (bytesRead === 0) return bytes.subarray(0, filled);
    filled += bytesRead;
  }
}
