import { spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { ToolgateError } from '@toolgate/core';
import type { ExecOptions, ExecResult } from '../environment.js';
import { type CallProcesses, spawnTracked } from './call-processes.js';
import { commandStdio } from './exec-descriptors.js';
import { callMarkerVariable, newCallMarker } from './process-sweep.js';

/** The variables a command inherits by default; everything else (tokens, keys) is scrubbed. */
export const defaultInheritedVariables: readonly string[] = Object.freeze([
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'TERM',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'TZ',
  'TMPDIR',
]);

/** How {@link runCommand} runs one command line. */
export interface RunCommandOptions {
  cwd: string;
  shell: string;
  env: Record<string, string>;
  timeoutMs: number;
  maxOutputBytes: number;
  /** Arguments put before `shell -c command`, e.g. a sandbox launcher. Default none. */
  prefix?: readonly string[];
  /**
   * The launcher keeps every process of the command in a PID namespace that dies with it
   * (bubblewrap's `--unshare-pid --die-with-parent`): killing its process group ends them all, so
   * no cgroup is made and `/proc` is not scanned for the call's marker. Default false.
   */
  namespaced?: boolean;
  /** How long to wait for the output pipes to close once every process is killed. Default 1,000 ms. */
  pipeGraceMs?: number;
  /** Aborting it kills the command as a timeout does; the call then rejects with CANCELLED. */
  signal?: AbortSignal;
  /** Told each piece of output as it arrives, decoded as UTF-8 (see {@link ExecOptions.onOutput}). */
  onOutput?: ExecOptions['onOutput'];
}

/** An environment's command settings, as `LocalEnvironmentOptions` names them. */
export interface CommandSettings {
  /** Default `/bin/sh`. */
  shell?: string;
  /** Default 30,000 ms. */
  commandTimeoutMs?: number;
  /** The ceiling a call's own `timeoutMs` is held to. Default 600,000 ms. */
  maxCommandTimeoutMs?: number;
  /** Per stream. Default 1 MiB. */
  maxOutputBytes?: number;
}

/**
 * One `exec` of an environment: an empty command is refused, the settings' defaults and ceiling are
 * applied, and the command runs with {@link runCommand} in `cwd` with `env` (behind `prefix`, if any).
 */
export function execCommand(
  command: string,
  options: ExecOptions,
  settings: CommandSettings,
  where: Pick<RunCommandOptions, 'cwd' | 'env' | 'prefix' | 'namespaced'>,
): Promise<ExecResult> {
  if (typeof command !== 'string' || command.trim() === '') {
    return Promise.reject(new ToolgateError('COMMAND_FAILED', 'the command is empty; pass a command line'));
  }
  const ceiling = settings.maxCommandTimeoutMs ?? 600_000;
  return runCommand(command, {
    ...where,
    shell: settings.shell ?? '/bin/sh',
    timeoutMs: Math.min(options.timeoutMs ?? settings.commandTimeoutMs ?? 30_000, ceiling),
    maxOutputBytes: settings.maxOutputBytes ?? 1024 * 1024,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onOutput ? { onOutput: options.onOutput } : {}),
  });
}

/** The environment a command gets: the allowed variables of this process, plus fixed ones. */
export function scrubbedEnvironment(
  inherit: readonly string[],
  fixed: Record<string, string> = {},
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of inherit) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return { ...env, ...fixed };
}

/** Calls still running, by process group: killed if this process exits before they end. */
const running = new Map<number, CallProcesses | undefined>();
let exitHookInstalled = false;

/** `processes` undefined: a namespaced launcher, whose group is all there is to kill. */
function trackRunning(groupId: number, processes: CallProcesses | undefined): void {
  running.set(groupId, processes);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const [group, call] of running) {
      if (call === undefined) killGroup(group);
      else call.killSync(group);
    }
  });
}

function killGroup(groupId: number | undefined): void {
  if (groupId === undefined) return;
  try {
    process.kill(-groupId, 'SIGKILL');
  } catch {
    // already gone
  }
}

const delay = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms).unref();
  });

/**
 * Runs `command` with `shell -c` in a new session (its own process group), in a cgroup of its
 * own where this process can make one (the shell moves itself in before the command runs; else
 * every process of it tagged with a random {@link callMarkerVariable}). When the shell exits, or the timeout fires, the group is killed and
 * so is every process still in the cgroup (or, without one, still carrying the tag, found in
 * `/proc`), so no process of the call outlives it; the call then waits at most `pipeGraceMs` for
 * the output pipes to close, so a process that kept them open cannot hold the call.
 */
export async function runCommand(command: string, options: RunCommandOptions): Promise<ExecResult> {
  if (options.signal?.aborted) throw cancelled(command);
  const marker = newCallMarker();
  const start = (entry = '') => {
    const argv: string[] = [...(options.prefix ?? []), options.shell, '-c', entry + command];
    const [file, ...args] = argv as [string, ...string[]];
    return spawn(file, args, {
      cwd: options.cwd,
      env: { ...options.env, [callMarkerVariable]: marker },
      detached: true,
      stdio: commandStdio(),
    });
  };
  let child: ReturnType<typeof spawn>;
  let processes: CallProcesses | undefined;
  try {
    if (options.namespaced) child = start();
    else ({ started: child, processes } = spawnTracked(marker, start));
  } catch (error) {
    throw commandFailed(command, error);
  }
  const stdout = new CappedBuffer(options.maxOutputBytes);
  const stderr = new CappedBuffer(options.maxOutputBytes);
  child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
  if (options.onOutput) forwardOutput(child, options.onOutput);
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  let failure: Error | undefined;
  let closed = false;
  const exited = new Promise<boolean>((resolve) => {
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      resolve(false);
    });
    child.once('error', (error) => {
      failure = error;
      resolve(false);
    });
  });
  const pipesClosed = new Promise<void>((resolve) =>
    child.once('close', () => {
      closed = true;
      resolve();
    }),
  );
  const groupId = child.pid;
  if (groupId !== undefined) trackRunning(groupId, processes);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(true), options.timeoutMs);
  });
  let aborted = false;
  let onAbort: (() => void) | undefined;
  const abort = new Promise<boolean>((resolve) => {
    onAbort = () => {
      aborted = true;
      resolve(false);
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
  });
  const timedOut = await Promise.race([exited, timeout, abort]);
  clearTimeout(timer);
  if (onAbort) options.signal?.removeEventListener('abort', onAbort);
  try {
    if (processes === undefined) killGroup(groupId);
    else await processes.kill(groupId);
    if (!closed) await Promise.race([pipesClosed, delay(options.pipeGraceMs ?? 1000)]);
  } finally {
    if (groupId !== undefined) running.delete(groupId);
  }
  if (!closed) {
    child.stdout?.destroy();
    child.stderr?.destroy();
  }
  if (aborted) throw cancelled(command);
  if (failure !== undefined && exit === undefined) throw commandFailed(command, failure);
  return {
    exitCode: timedOut ? null : (exit?.code ?? null),
    signal: exit?.signal ?? null,
    timedOut,
    stdout: stdout.text(),
    stderr: stderr.text(),
    stdoutOmittedBytes: stdout.omitted,
    stderrOmittedBytes: stderr.omitted,
  };
}

/** Hands each chunk of stdout and stderr to `onOutput`, never splitting a UTF-8 character; a throwing listener is ignored. */
function forwardOutput(
  child: ReturnType<typeof spawn>,
  onOutput: NonNullable<ExecOptions['onOutput']>,
): void {
  for (const stream of ['stdout', 'stderr'] as const) {
    const decoder = new StringDecoder('utf8');
    child[stream]?.on('data', (chunk: Buffer) => {
      const text = decoder.write(chunk);
      if (text === '') return;
      try {
        onOutput({ stream, text });
      } catch {
        // output is advisory: a failing listener must not fail the command
      }
    });
  }
}

function cancelled(command: string): ToolgateError {
  return new ToolgateError(
    'CANCELLED',
    `the command ${JSON.stringify(command)} was cancelled by its caller; it was killed with every process it started`,
  );
}

function commandFailed(command: string, error: unknown): ToolgateError {
  return new ToolgateError(
    'COMMAND_FAILED',
    `could not run ${JSON.stringify(command)}: ${(error as Error).message}`,
    { cause: error },
  );
}

/** Keeps the first `max` bytes of a stream and counts the rest. */
export class CappedBuffer {
  readonly #chunks: Buffer[] = [];
  #kept = 0;
  omitted = 0;

  constructor(readonly max: number) {}

  push(chunk: Buffer): void {
    const room = this.max - this.#kept;
    if (room >= chunk.length) {
      this.#chunks.push(chunk);
      this.#kept += chunk.length;
      return;
    }
    if (room > 0) {
      this.#chunks.push(chunk.subarray(0, room));
      this.#kept += room;
    }
    this.omitted += chunk.length - Math.max(room, 0);
  }

  /** The kept bytes as UTF-8 text. */
  text(): string {
    return Buffer.concat(this.#chunks).toString('utf8');
  }
}
