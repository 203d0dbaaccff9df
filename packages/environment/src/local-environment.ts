import { realpathSync, type Stats, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { ToolgateError } from '@toolgate/core';
import { type ConfinedRoot, describeRoot, PathChangedError } from './confined/index.js';
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
} from './environment.js';
import { defaultInheritedVariables, execCommand, scrubbedEnvironment } from './exec/index.js';
import {
  fetchLocal,
  type HostResolver,
  hostAllowList,
  type NetworkRules,
  systemResolver,
} from './fetch/index.js';
import {
  globLocal,
  listLocalDirectory,
  readLocalFile,
  resolveLocalPath,
  writeLocalFile,
} from './files/index.js';
import {
  isProtected,
  outsideRoot,
  type ProtectedPathsOption,
  pathKeptChanging,
  protectedPathList,
  protectedPathRefused,
  withGitDirectories,
} from './paths/index.js';
import { type SearchEngine, searchLocal, searchTimeoutOf } from './search/index.js';

const maxConfinementAttempts = 3;

/** What a {@link LocalEnvironment} is built with. Every cap has a default. */
export interface LocalEnvironmentOptions {
  /** The directory everything is confined to. It must exist; symlinks in it are resolved. */
  root: string;
  /** Variables commands inherit from this process. Default {@link defaultInheritedVariables}. */
  inheritEnv?: readonly string[];
  /** Variables set for every command, on top of the inherited ones. */
  env?: Record<string, string>;
  /** The shell that runs command lines with `-c`. Default `/bin/sh`. */
  shell?: string;
  /** Default command timeout. Default 30,000 ms. */
  commandTimeoutMs?: number;
  /** The longest timeout a caller may ask for. Default 10 minutes. */
  maxCommandTimeoutMs?: number;
  /** Bytes of stdout and of stderr kept per command. Default 1 MiB each. */
  maxOutputBytes?: number;
  /** The largest file `readFile` reads. Default 32 MiB. */
  maxReadBytes?: number;
  /**
   * Let `readFile` read, and `search` search, a regular file that has more than one hard link.
   * Default false: such a file may also be reachable from outside the root, so reading it could
   * disclose a file outside. Writing one is always refused.
   */
  allowHardLinkedReads?: boolean;
  /** Hosts that may be reached even at internal addresses: `api.local`, `127.0.0.1:8080`, `*.corp`. */
  allowHosts?: readonly string[];
  /** Resolves host names. Default: the system resolver. Inject one in tests. */
  lookup?: HostResolver;
  /** Time cap of one fetch, redirects included. Default 30,000 ms. */
  fetchTimeoutMs?: number;
  /** Bytes of a response body kept. Default 1 MiB. */
  maxResponseBytes?: number;
  /** Redirects followed. Default 5. */
  maxRedirects?: number;
  /** Content search engine. Default `auto` (ripgrep when on PATH and the pattern allows). */
  search?: SearchEngine;
  /** The ripgrep executable. Default `rg`. */
  ripgrepPath?: string;
  /**
   * Deadline of one content search, in milliseconds. Past it ripgrep is killed, or the worker thread
   * running the JavaScript engine is terminated, and the search fails with TIMEOUT. When set, it
   * bounds the time a caller asks (`SearchOptions.timeoutMs`); unset, a search runs for the time its
   * caller asks, and 30,000 ms when it asks none.
   */
  searchTimeoutMs?: number;
  /**
   * Workspace paths `writeFile` refuses (PERMISSION_DENIED), and a sandbox keeps read-only to its
   * commands: {@link defaultProtectedPaths}, with paths added (`true`) or opted out (`false`).
   */
  protectedPaths?: ProtectedPathsOption;
}

/**
 * An environment over the real machine, confined to one root: paths are resolved through symlinks
 * and must stay inside, commands run inside it with a scrubbed environment and a timeout that kills
 * their whole process group, and network requests may not reach internal addresses unless the
 * allow-list says so.
 *
 * @example
 * const environment = new LocalEnvironment({ root: process.cwd(), allowHosts: ['api.example.com'] });
 * const { content } = await environment.readFile('README.md', { offset: 1, limit: 20 });
 */
export class LocalEnvironment implements Environment {
  readonly root: string;
  readonly #options: LocalEnvironmentOptions;
  readonly #commandEnv: Record<string, string>;
  readonly #network: NetworkRules;
  readonly #confinedRoot: ConfinedRoot;
  readonly #protected: readonly string[];

  constructor(options: LocalEnvironmentOptions) {
    let root: string;
    let rootStats: Stats;
    try {
      root = realpathSync(resolve(options.root));
      rootStats = statSync(root);
      if (!rootStats.isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
    } catch (error) {
      throw new ToolgateError(
        'NOT_FOUND',
        `the environment root ${JSON.stringify(options.root)} is not an existing directory; create it first`,
        { cause: error },
      );
    }
    this.root = root;
    this.#confinedRoot = describeRoot(root, rootStats);
    this.#options = options;
    this.#protected = protectedPathList(options.protectedPaths);
    this.#commandEnv = scrubbedEnvironment(options.inheritEnv ?? defaultInheritedVariables, options.env);
    this.#network = {
      isAllowed: hostAllowList(options.allowHosts),
      resolver: options.lookup ?? systemResolver,
      timeoutMs: options.fetchTimeoutMs ?? 30_000,
      maxResponseBytes: options.maxResponseBytes ?? 1024 * 1024,
      maxRedirects: options.maxRedirects ?? 5,
    };
  }

  resolvePath(path: string): Promise<ResolvedPath> {
    return resolveLocalPath(this.root, path);
  }

  /** Resolves a path and refuses it unless it stays inside the root. */
  async #confine(path: string): Promise<ResolvedPath> {
    const resolved = await resolveLocalPath(this.root, path);
    if (!resolved.inside) throw outsideRoot(path, resolved.absolute, this.root);
    return resolved;
  }

  /**
   * Resolves and checks `path`, then runs a file operation that opens it from the root without
   * following links. If the tree changed in between (a directory became a symlink), the path is
   * resolved and checked again, a few times, before giving up.
   */
  async #withConfined<T>(path: string, operation: (target: ResolvedPath) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const target = await this.#confine(path);
      try {
        return await operation(target);
      } catch (error) {
        if (!(error instanceof PathChangedError)) throw error;
        if (attempt >= maxConfinementAttempts) throw pathKeptChanging(path, error);
      }
    }
  }

  async readFile(path: string, options?: ReadFileOptions): Promise<FileContent> {
    const rules = {
      maxBytes: this.#options.maxReadBytes ?? 32 * 1024 * 1024,
      allowHardLinkedReads: this.#options.allowHardLinkedReads === true,
    };
    return this.#withConfined(path, (target) => readLocalFile(this.#confinedRoot, target, options, rules));
  }

  async writeFile(path: string, content: string): Promise<WriteResult> {
    return this.#withConfined(path, (target) => {
      const entry = isProtected(target.path, this.protectedPaths());
      if (entry !== undefined) throw protectedPathRefused(target.path, entry);
      return writeLocalFile(this.#confinedRoot, target, content);
    });
  }

  /**
   * The workspace-relative paths writes are refused under, as of now: the configured list, plus the
   * git directory a `.git` file points to when it lies inside the root.
   */
  protectedPaths(): readonly string[] {
    return withGitDirectories(this.root, this.#protected);
  }

  async listDirectory(path = '.'): Promise<DirectoryListing> {
    return this.#withConfined(path, (target) => listLocalDirectory(this.#confinedRoot, target));
  }

  glob(pattern: string): Promise<GlobResult> {
    return globLocal(this.#confinedRoot, pattern);
  }

  search(pattern: string, options?: SearchOptions): Promise<SearchResult> {
    return searchLocal({
      root: this.#confinedRoot,
      allowHardLinks: this.#options.allowHardLinkedReads === true,
      pattern,
      options,
      engine: this.#options.search ?? 'auto',
      ripgrep: {
        command: this.#options.ripgrepPath ?? 'rg',
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      },
      timeoutMs: searchTimeoutOf(this.#options.searchTimeoutMs, options?.timeoutMs),
    });
  }

  exec(command: string, options: ExecOptions = {}): Promise<ExecResult> {
    return execCommand(command, options, this.#options, { cwd: this.root, env: this.#commandEnv });
  }

  fetch(request: FetchRequest): Promise<FetchResponse> {
    return fetchLocal(request, this.#network);
  }
}
