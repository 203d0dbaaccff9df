import { realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
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
} from './environment.js';
import { defaultInheritedVariables, runCommand, scrubbedEnvironment } from './local-exec.js';
import { fetchLocal, type HostResolver, type NetworkRules, systemResolver } from './local-fetch.js';
import { listLocalDirectory, readLocalFile, writeLocalFile } from './local-files.js';
import { globLocal } from './local-glob.js';
import { resolveLocalPath } from './local-resolve.js';
import { searchLocal } from './local-search.js';
import { outsideRoot } from './path-rules.js';
import { type SearchEngine, searchDefaults } from './search-prepare.js';
import { hostAllowList } from './url-rules.js';

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
   * running the JavaScript engine is terminated, and the search fails with TIMEOUT. Default 30,000.
   */
  searchTimeoutMs?: number;
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

  constructor(options: LocalEnvironmentOptions) {
    let root: string;
    try {
      root = realpathSync(resolve(options.root));
      if (!statSync(root).isDirectory())
        throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
    } catch (error) {
      throw new ToolgateError(
        'NOT_FOUND',
        `the environment root ${JSON.stringify(options.root)} is not an existing directory; create it first`,
        { cause: error },
      );
    }
    this.root = root;
    this.#options = options;
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

  async readFile(path: string, options?: ReadFileOptions): Promise<FileContent> {
    return readLocalFile(await this.#confine(path), options, this.#options.maxReadBytes ?? 32 * 1024 * 1024);
  }

  async writeFile(path: string, content: string): Promise<WriteResult> {
    return writeLocalFile(await this.#confine(path), content);
  }

  async listDirectory(path = '.'): Promise<DirectoryListing> {
    return listLocalDirectory(await this.#confine(path));
  }

  glob(pattern: string): Promise<GlobResult> {
    return globLocal(this.root, pattern);
  }

  search(pattern: string, options?: SearchOptions): Promise<SearchResult> {
    return searchLocal(
      this.root,
      pattern,
      options,
      this.#options.search ?? 'auto',
      {
        command: this.#options.ripgrepPath ?? 'rg',
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      },
      this.#options.searchTimeoutMs ?? searchDefaults.timeoutMs,
    );
  }

  exec(command: string, options: ExecOptions = {}): Promise<ExecResult> {
    if (typeof command !== 'string' || command.trim() === '') {
      return Promise.reject(new ToolgateError('COMMAND_FAILED', 'the command is empty; pass a command line'));
    }
    const ceiling = this.#options.maxCommandTimeoutMs ?? 600_000;
    return runCommand(command, {
      cwd: this.root,
      shell: this.#options.shell ?? '/bin/sh',
      env: this.#commandEnv,
      timeoutMs: Math.min(options.timeoutMs ?? this.#options.commandTimeoutMs ?? 30_000, ceiling),
      maxOutputBytes: this.#options.maxOutputBytes ?? 1024 * 1024,
    });
  }

  fetch(request: FetchRequest): Promise<FetchResponse> {
    return fetchLocal(request, this.#network);
  }
}
