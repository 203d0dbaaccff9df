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
import { LocalEnvironment, type LocalEnvironmentOptions } from './local-environment.js';
import { defaultInheritedVariables, execCommand, scrubbedEnvironment } from './local-exec.js';
import { probeSandbox, sandboxArguments } from './sandbox-arguments.js';

/** What a {@link SandboxEnvironment} is built with: a {@link LocalEnvironment}'s options and the sandbox's. */
export interface SandboxEnvironmentOptions extends LocalEnvironmentOptions {
  /**
   * Let commands use the network (the host's network namespace, loopback included). Default false:
   * commands get a network namespace of their own with nothing in it. The `fetch` operation is not
   * a command: it keeps the network rules of {@link LocalEnvironment}.
   */
  allowNetwork?: boolean;
  /** Extra host paths (a toolchain outside `/usr`, say) bound read-only, at the same path. */
  readOnlyPaths?: readonly string[];
  /** The bubblewrap executable. Default `bwrap`. */
  bubblewrapPath?: string;
}

/**
 * A {@link LocalEnvironment} whose commands run in a bubblewrap sandbox (Linux): only the workspace
 * root is writable; `/usr` and the other system directories are read-only; `/tmp` is private; there
 * is no `/root`, no `/home` and no `/etc/passwd`; no network unless `allowNetwork`; a new session and
 * a PID namespace, so when the call ends everything it started ends with it, even a process that
 * left its group and cleared its environment. File operations keep the LocalEnvironment's confined
 * path rules. Constructing one probes bubblewrap and fails with COMMAND_FAILED, saying what to
 * install, when it cannot sandbox — it never falls back to running commands unsandboxed.
 *
 * @example
 * const environment = new SandboxEnvironment({ root: '/srv/workspace' });
 * await environment.exec('cat /etc/passwd'); // → exit 1: "No such file or directory"
 */
export class SandboxEnvironment implements Environment {
  readonly root: string;
  readonly #local: LocalEnvironment;
  readonly #options: SandboxEnvironmentOptions;
  readonly #prefix: readonly string[];
  readonly #commandEnv: Record<string, string>;

  constructor(options: SandboxEnvironmentOptions) {
    this.#local = new LocalEnvironment(options);
    this.root = this.#local.root;
    if (this.root === '/') {
      throw new ToolgateError(
        'INVALID_DEFINITION',
        'the sandbox root is "/", which would bind the whole file system writable; pick a workspace directory',
      );
    }
    this.#options = options;
    const bubblewrap = options.bubblewrapPath ?? 'bwrap';
    const shell = options.shell ?? '/bin/sh';
    const args = sandboxArguments({
      root: this.root,
      allowNetwork: options.allowNetwork ?? false,
      readOnlyPaths: options.readOnlyPaths ?? [],
    });
    probeSandbox(bubblewrap, args, shell);
    this.#prefix = [bubblewrap, ...args];
    this.#commandEnv = scrubbedEnvironment(options.inheritEnv ?? defaultInheritedVariables, {
      HOME: '/tmp',
      TMPDIR: '/tmp',
      ...options.env,
    });
  }

  resolvePath(path: string): Promise<ResolvedPath> {
    return this.#local.resolvePath(path);
  }

  readFile(path: string, options?: ReadFileOptions): Promise<FileContent> {
    return this.#local.readFile(path, options);
  }

  writeFile(path: string, content: string): Promise<WriteResult> {
    return this.#local.writeFile(path, content);
  }

  listDirectory(path?: string): Promise<DirectoryListing> {
    return this.#local.listDirectory(path);
  }

  glob(pattern: string): Promise<GlobResult> {
    return this.#local.glob(pattern);
  }

  search(pattern: string, options?: SearchOptions): Promise<SearchResult> {
    return this.#local.search(pattern, options);
  }

  /** Runs a command line with `shell -c` inside the sandbox, in the workspace root. */
  exec(command: string, options: ExecOptions = {}): Promise<ExecResult> {
    return execCommand(command, options, this.#options, {
      cwd: this.root,
      env: this.#commandEnv,
      prefix: this.#prefix,
    });
  }

  /** An HTTP request from this process, under the LocalEnvironment's network rules (not the sandbox's). */
  fetch(request: FetchRequest): Promise<FetchResponse> {
    return this.#local.fetch(request);
  }
}
