import { spawn } from 'node:child_process';
import { ToolgateError } from '@toolgate/core';
import type { ExecResult } from './environment.js';

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

/**
 * Runs `command` with `shell -c` in its own process group. When the timeout fires, or as soon as
 * the shell itself exits, the whole group is killed, so no child outlives the call.
 */
export function runCommand(command: string, options: RunCommandOptions): Promise<ExecResult> {
  return new Promise((resolvePromise, reject) => {
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(options.shell, ['-c', command], {
        cwd: options.cwd,
        env: options.env,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    } catch (error) {
      reject(commandFailed(command, error));
      return;
    }
    const stdout = new CappedBuffer(options.maxOutputBytes);
    const stderr = new CappedBuffer(options.maxOutputBytes);
    child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
    let timedOut = false;
    const killGroup = () => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // the group is already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, options.timeoutMs);
    child.once('exit', killGroup);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(commandFailed(command, error));
    });
    child.once('close', (exitCode, signal) => {
      clearTimeout(timer);
      resolvePromise({
        exitCode: timedOut ? null : exitCode,
        signal: signal ?? null,
        timedOut,
        stdout: stdout.text(),
        stderr: stderr.text(),
        stdoutOmittedBytes: stdout.omitted,
        stderrOmittedBytes: stderr.omitted,
      });
    });
  });
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
