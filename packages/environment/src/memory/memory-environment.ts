import { posix } from 'node:path';
import { ToolgateError } from '@toolgate/core';
import type {
  DirectoryListing,
  Environment,
  ExecOptions,
  ExecResult,
  FetchRequest,
  FetchResponse,
  FileContent,
  GlobResult,
  ReadFileOptions,
  ResolvedPath,
  SearchOptions,
  SearchResult,
  WriteResult,
} from '../environment.js';
import { assertNoHostHeader, checkUrl, hostAllowList } from '../fetch/index.js';
import { selectLines } from '../files/index.js';
import {
  assertGlobPattern,
  assertPathText,
  comparePaths,
  isInside,
  isProtected,
  outsideRoot,
  type ProtectedPathsOption,
  pathMatcher,
  protectedPathList,
  protectedPathRefused,
  relativePosix,
} from '../paths/index.js';
import { jobOptions, prepareSearch, searchOffThread, searchTimeoutOf } from '../search/index.js';
import { type FileTree, MemoryTree } from './memory-tree.js';

/** Serves a command line in a {@link MemoryEnvironment}: a result (missing fields default) or stdout text. */
export type CommandHandler = (
  command: string,
  options: ExecOptions,
) => Partial<ExecResult> | string | Promise<Partial<ExecResult> | string>;

/** Serves a request in a {@link MemoryEnvironment}: a response (missing fields default) or body text. */
export type FetchHandler = (
  request: FetchRequest,
) => Partial<FetchResponse> | string | Promise<Partial<FetchResponse> | string>;

/** What a {@link MemoryEnvironment} is built with. */
export interface MemoryEnvironmentOptions {
  /** The files to start with: `{ 'src/a.ts': '…', docs: { 'b.md': '…' } }`. */
  files?: FileTree;
  /** The absolute name of the in-memory root. Default `/workspace`. */
  root?: string;
  /** Answers `exec`; without one, every command fails with COMMAND_FAILED. */
  commands?: CommandHandler;
  /** Answers `fetch`; without one, every request fails with NETWORK_FAILED. */
  fetch?: FetchHandler;
  /** Hosts that may be named even as internal IP literals (`127.0.0.1:8080`). */
  allowHosts?: readonly string[];
  /**
   * Deadline of one content search (run on a worker thread), in milliseconds: when set, it bounds the
   * time a caller asks (`SearchOptions.timeoutMs`); unset, the caller's time, or 30,000 ms.
   */
  searchTimeoutMs?: number;
  /** Paths `writeFile` refuses, as for {@link LocalEnvironmentOptions.protectedPaths}. */
  protectedPaths?: ProtectedPathsOption;
}

/**
 * The {@link Environment} contract over an in-memory tree, for tests and deterministic demos. Paths
 * follow the same rules as {@link LocalEnvironment} (no escapes, no NUL bytes, nothing URL-decoded);
 * commands and requests are answered by the handlers given, after the same URL scheme and
 * IP-literal checks.
 *
 * @example
 * const environment = new MemoryEnvironment({
 *   files: { 'notes.md': 'moss\n' },
 *   commands: (command) => (command === 'npm test' ? { stdout: 'ok\n' } : { exitCode: 1 }),
 * });
 */
export class MemoryEnvironment implements Environment {
  readonly root: string;
  readonly #tree: MemoryTree;
  readonly #options: MemoryEnvironmentOptions;
  readonly #isAllowed: (hostname: string, port: number) => boolean;
  readonly #protected: readonly string[];

  constructor(options: MemoryEnvironmentOptions = {}) {
    this.root = posix.resolve(options.root ?? '/workspace');
    this.#tree = new MemoryTree(options.files);
    this.#options = options;
    this.#isAllowed = hostAllowList(options.allowHosts);
    this.#protected = protectedPathList(options.protectedPaths);
  }

  /** Every file, as `{ path: content }` sorted by path. */
  snapshot(): Record<string, string> {
    return Object.fromEntries([...this.#tree.files].sort(([left], [right]) => comparePaths(left, right)));
  }

  async resolvePath(path: string): Promise<ResolvedPath> {
    assertPathText(path);
    const absolute = posix.resolve(this.root, path);
    const inside = isInside(this.root, absolute, '/');
    return { path: inside ? relativePosix(this.root, absolute, '/') : absolute, absolute, inside };
  }

  async #confine(path: string): Promise<string> {
    const resolved = await this.resolvePath(path);
    if (!resolved.inside) throw outsideRoot(path, resolved.absolute, this.root);
    return resolved.path;
  }

  async readFile(path: string, options?: ReadFileOptions): Promise<FileContent> {
    const relative = await this.#confine(path);
    const content = this.#tree.files.get(relative);
    if (content === undefined) {
      if (this.#tree.directories.has(relative)) {
        throw new ToolgateError(
          'INVALID_PATH',
          `cannot read ${JSON.stringify(relative)}: it is a directory; use list_dir`,
        );
      }
      throw notFound('read', relative);
    }
    return selectLines(relative, content, options);
  }

  async writeFile(path: string, content: string): Promise<WriteResult> {
    const relative = await this.#confine(path);
    const entry = isProtected(relative, this.#protected);
    if (entry !== undefined) throw protectedPathRefused(relative, entry);
    const created = !this.#tree.files.has(relative);
    this.#tree.write(relative, content);
    return { path: relative, bytes: Buffer.byteLength(content, 'utf8'), created };
  }

  async listDirectory(path = '.'): Promise<DirectoryListing> {
    const relative = await this.#confine(path);
    if (!this.#tree.directories.has(relative)) {
      if (this.#tree.files.has(relative)) {
        throw new ToolgateError(
          'INVALID_PATH',
          `cannot list ${JSON.stringify(relative)}: a part of it is not a directory`,
        );
      }
      throw notFound('list', relative);
    }
    return { path: relative, entries: this.#tree.children(relative) };
  }

  async glob(pattern: string): Promise<GlobResult> {
    const matches = pathMatcher(assertGlobPattern(pattern));
    const paths = [...this.#tree.files.keys()].filter((path) => matches(path)).sort(comparePaths);
    return { paths };
  }

  async search(pattern: string, options?: SearchOptions): Promise<SearchResult> {
    const { include } = prepareSearch(pattern, options);
    const withhold = options?.withhold;
    let withheld = 0;
    const files = [...this.#tree.files].filter(([path]) => {
      if (!include(path)) return false;
      if (withhold?.(path) !== true) return true;
      withheld++;
      return false;
    });
    const timeoutMs = searchTimeoutOf(this.#options.searchTimeoutMs, options?.timeoutMs);
    const result = await searchOffThread(
      { kind: 'texts', files, pattern, options: jobOptions(options) },
      timeoutMs,
    );
    return withheld === 0 ? result : { ...result, withheld };
  }

  async exec(command: string, options: ExecOptions = {}): Promise<ExecResult> {
    const handler = this.#options.commands;
    if (!handler) {
      throw new ToolgateError(
        'COMMAND_FAILED',
        `could not run ${JSON.stringify(command)}: this environment has no commands`,
      );
    }
    const answer = await handler(command, options);
    const result = typeof answer === 'string' ? { stdout: answer } : answer;
    return {
      exitCode: result.exitCode === undefined ? 0 : result.exitCode,
      signal: result.signal ?? null,
      timedOut: result.timedOut ?? false,
      stdout: result.stdout ?? '',
      stderr: result.stderr ?? '',
      stdoutOmittedBytes: result.stdoutOmittedBytes ?? 0,
      stderrOmittedBytes: result.stderrOmittedBytes ?? 0,
    };
  }

  async fetch(request: FetchRequest): Promise<FetchResponse> {
    assertNoHostHeader(request.headers);
    const checked = checkUrl(request.url, this.#isAllowed);
    const handler = this.#options.fetch;
    if (!handler) {
      throw new ToolgateError(
        'NETWORK_FAILED',
        `fetching ${checked.url.href} failed: this environment has no network`,
      );
    }
    const answer = await handler({ ...request, url: checked.url.href });
    const response = typeof answer === 'string' ? { body: answer } : answer;
    return {
      url: response.url ?? checked.url.href,
      status: response.status ?? 200,
      statusText: response.statusText ?? 'OK',
      headers: response.headers ?? {},
      body: response.body ?? '',
      omittedBytes: response.omittedBytes ?? 0,
      redirects: response.redirects ?? [],
    };
  }
}

function notFound(action: string, path: string): ToolgateError {
  return new ToolgateError(
    'NOT_FOUND',
    `cannot ${action} ${JSON.stringify(path)}: no such file or directory`,
  );
}
