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
import { defaultInheritedVariables, execCommand, scrubbedEnvironment } from '../exec/index.js';
import { hostAllowList, systemResolver } from '../fetch/index.js';
import { LocalEnvironment, type LocalEnvironmentOptions } from '../local-environment.js';
import { forwarderPort } from './egress-forwarder.js';
import { type EgressJudge, egressMount, startEgressProxy } from './egress-proxy.js';
import { protectedMounts, removePlaceholders } from './protected-mounts.js';
import { sandboxArguments } from './sandbox-arguments.js';
import { limitArguments, limitReached, resolveLimits, type SandboxLimits } from './sandbox-limits.js';
import { probeSandbox } from './sandbox-probe.js';
import { dropArguments, type SandboxUser, sandboxUserFor, setprivPath } from './sandbox-user.js';

/** What a {@link SandboxEnvironment} is built with: a {@link LocalEnvironment}'s options and the sandbox's. */
export interface SandboxEnvironmentOptions extends LocalEnvironmentOptions {
  /**
   * Let commands use the network (the host's network namespace, loopback included). Default false:
   * commands get a network namespace of their own with nothing in it. The `fetch` operation is not
   * a command: it keeps the network rules of {@link LocalEnvironment}.
   */
  allowNetwork?: boolean;
  /**
   * The commands' network: `none` (the default; `allowNetwork: false`), `host` (the host's network
   * namespace; `allowNetwork: true`), or `policy`: none of its own, only a filtering HTTP proxy
   * (CONNECT and plain HTTP, reached through `HTTP_PROXY`/`HTTPS_PROXY`) that asks `egressJudge`
   * about every destination and refuses internal addresses unless `allowHosts` names them.
   */
  network?: 'none' | 'host' | 'policy';
  /** Judges each destination with `network: 'policy'` (required then); see {@link EgressJudge}. */
  egressJudge?: EgressJudge;
  /** Extra host paths (a toolchain outside `/usr`, say) bound read-only, at the same path. */
  readOnlyPaths?: readonly string[];
  /** The bubblewrap executable. Default `bwrap`. */
  bubblewrapPath?: string;
  /**
   * When this process is root, the host user commands run as (never root). Default: the owner of the
   * workspace root, or `nobody` (65534:65534) when root owns it. Only a root process may set it.
   */
  sandboxUser?: SandboxUser;
  /** Resource limits of each command; each has a default (see {@link SandboxLimits}). */
  limits?: SandboxLimits;
  /** Commands this environment runs at once; one more is refused with COMMAND_FAILED. Default 4. */
  maxConcurrentCommands?: number;
}

const proxyUrl = `http://127.0.0.1:${forwarderPort}`;

/** What points a command's HTTP clients at the forwarder (Node's own only with NODE_USE_ENV_PROXY). */
const proxyVariables: Record<string, string> = {
  HTTP_PROXY: proxyUrl,
  HTTPS_PROXY: proxyUrl,
  http_proxy: proxyUrl,
  https_proxy: proxyUrl,
  NO_PROXY: '',
  no_proxy: '',
  NODE_USE_ENV_PROXY: '1',
};

function networkOf(options: SandboxEnvironmentOptions): 'none' | 'host' | 'policy' {
  const network = options.network ?? (options.allowNetwork ? 'host' : 'none');
  if (!['none', 'host', 'policy'].includes(network)) {
    throw new ToolgateError(
      'INVALID_DEFINITION',
      `network is ${JSON.stringify(network)}; use "none", "host" or "policy"`,
    );
  }
  if (
    options.allowNetwork !== undefined &&
    options.network !== undefined &&
    (network === 'host') !== options.allowNetwork
  ) {
    throw new ToolgateError(
      'INVALID_DEFINITION',
      `allowNetwork ${options.allowNetwork} contradicts network ${JSON.stringify(network)}; pass network alone`,
    );
  }
  if (network === 'policy' && typeof options.egressJudge !== 'function') {
    throw new ToolgateError(
      'INVALID_DEFINITION',
      'network "policy" needs egressJudge, the function that judges each host a command connects to (the policy that judges fetch)',
    );
  }
  return network;
}

/** Per workspace root: the calls running in it and the placeholders their sandboxes made. */
const workspaces = new Map<string, { running: number; placeholders: Set<string> }>();

/**
 * A {@link LocalEnvironment} whose commands run in a bubblewrap sandbox (Linux): only the workspace
 * root is writable, except its protected paths (`.git`, `.vscode`, `.envrc` … see
 * `protectedPaths`), which stay read-only and cannot be created; `/usr` and the other system
 * directories are read-only; `/tmp` is private and bounded; there is no `/root`, no `/home` and no
 * `/etc/passwd`; no network unless `allowNetwork`; a new session and a PID namespace, so when the
 * call ends everything it started ends with it. Commands never run as root: when this process is
 * root they run as `sandboxUser`. Each command is held to `limits` (processes, memory, file size,
 * CPU time) and sees no descriptor but stdin, stdout and stderr. File operations keep the
 * LocalEnvironment's confined path rules. Constructing one probes the sandbox and fails with
 * COMMAND_FAILED, saying what to do, when it cannot sandbox — it never falls back to running
 * commands unsandboxed.
 *
 * @example
 * const environment = new SandboxEnvironment({ root: '/srv/workspace' });
 * await environment.exec('cat /etc/passwd'); // → exit 1: "No such file or directory"
 */
export class SandboxEnvironment implements Environment {
  readonly root: string;
  readonly #local: LocalEnvironment;
  readonly #options: SandboxEnvironmentOptions;
  readonly #outer: readonly string[];
  readonly #inner: readonly string[];
  readonly #commandEnv: Record<string, string>;
  readonly #limits: Required<SandboxLimits>;
  readonly #maxConcurrent: number;
  readonly #network: 'none' | 'host' | 'policy';
  #running = 0;

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
    this.#maxConcurrent = options.maxConcurrentCommands ?? 4;
    if (!Number.isInteger(this.#maxConcurrent) || this.#maxConcurrent < 1) {
      throw new ToolgateError(
        'INVALID_DEFINITION',
        `maxConcurrentCommands is ${JSON.stringify(options.maxConcurrentCommands)}; give a whole number of at least 1`,
      );
    }
    this.#limits = resolveLimits(options.limits);
    this.#network = networkOf(options);
    const bubblewrap = options.bubblewrapPath ?? 'bwrap';
    const shell = options.shell ?? '/bin/sh';
    const user = sandboxUserFor(this.root, options.sandboxUser);
    const args = sandboxArguments({
      root: this.root,
      allowNetwork: this.#network === 'host',
      readOnlyPaths: options.readOnlyPaths ?? [],
      user,
      tmpBytes: this.#limits.tmpBytes,
    });
    this.#outer = [bubblewrap, ...args];
    this.#inner = [
      ...(user ? dropArguments(setprivPath(), user, this.root) : []),
      ...limitArguments(this.#limits),
    ];
    probeSandbox({ bubblewrap, args: [...args, ...this.#inner], shell, root: this.root, user });
    this.#commandEnv = scrubbedEnvironment(options.inheritEnv ?? defaultInheritedVariables, {
      HOME: '/tmp',
      TMPDIR: '/tmp',
      ...(this.#network === 'policy' ? proxyVariables : {}),
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

  #startProxy(options: ExecOptions) {
    // The environment's judge and the call's own (a tool asking its call's policy) both judge each
    // destination: the strictest answer wins, and neither can widen the other.
    const judges = [this.#options.egressJudge, options.egressJudge].filter((judge) => judge !== undefined);
    if (judges.length === 0) throw new Error('unreachable: network policy without a judge');
    const judge: EgressJudge = async (destination) => {
      for (const each of judges) if (!(await each(destination))) return false;
      return true;
    };
    return startEgressProxy({
      judge,
      isAllowed: hostAllowList(this.#options.allowHosts),
      resolver: this.#options.lookup ?? systemResolver,
      callId: options.callId,
    });
  }

  /**
   * The argv `exec` would start for `command` now: bubblewrap with its arguments (protected paths
   * included, as they are at this moment), the user drop and limits, then `shell -c command`. For
   * diagnostics and benchmarks; running it yourself skips the placeholder clean-up and the kill of
   * everything the command started.
   */
  commandLine(command: string): readonly string[] {
    const mounts = protectedMounts(this.root, this.#local.protectedPaths());
    return [...this.#outer, ...mounts.args, ...this.#inner, this.#options.shell ?? '/bin/sh', '-c', command];
  }

  /**
   * Runs a command line with `shell -c` inside the sandbox, in the workspace root. Past
   * `maxConcurrentCommands` running at once it is refused (COMMAND_FAILED); a command that ran into
   * a limit ends as it ended, with `limit` saying which.
   */
  async exec(command: string, options: ExecOptions = {}): Promise<ExecResult> {
    if (this.#running >= this.#maxConcurrent) {
      throw new ToolgateError(
        'COMMAND_FAILED',
        `${this.#running} commands are already running in this sandbox, its limit (maxConcurrentCommands ` +
          `${this.#maxConcurrent}); ${JSON.stringify(command)} was not started: wait for one to end and try again`,
      );
    }
    const mounts = protectedMounts(this.root, this.#local.protectedPaths());
    const proxy = this.#network === 'policy' ? await this.#startProxy(options) : undefined;
    const egress = proxy
      ? {
          mount: ['--perms', '0755', '--dir', '/run', '--ro-bind', proxy.directory, egressMount],
          front: [process.execPath, `${egressMount}/forwarder.cjs`, `${egressMount}/proxy.sock`],
        }
      : { mount: [], front: [] };
    const workspace = workspaces.get(this.root) ?? { running: 0, placeholders: new Set<string>() };
    workspaces.set(this.root, workspace);
    workspace.running++;
    for (const path of mounts.placeholders) workspace.placeholders.add(path);
    this.#running++;
    try {
      const result = await execCommand(command, options, this.#options, {
        cwd: this.root,
        env: this.#commandEnv,
        prefix: [...this.#outer, ...mounts.args, ...egress.mount, ...this.#inner, ...egress.front],
        namespaced: true,
      });
      const limit = limitReached(result, this.#limits, this.#options.maxOutputBytes ?? 1024 * 1024);
      return limit ? { ...result, limit } : result;
    } finally {
      await proxy?.close();
      this.#running--;
      if (--workspace.running === 0) {
        workspaces.delete(this.root);
        removePlaceholders([...workspace.placeholders]);
      }
    }
  }

  /** An HTTP request from this process, under the LocalEnvironment's network rules (not the sandbox's). */
  fetch(request: FetchRequest): Promise<FetchResponse> {
    return this.#local.fetch(request);
  }
}
