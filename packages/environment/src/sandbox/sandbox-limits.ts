import { existsSync } from 'node:fs';
import { ToolgateError } from '@toolgate/core';
import type { ExecLimit, ExecResult } from '../environment.js';

/** The resource limits of each sandboxed command. Every one has a default; `Infinity` lifts one. */
export interface SandboxLimits {
  /**
   * Processes and threads the command's user may have (RLIMIT_NPROC). Without root, counted in the
   * sandbox's own user namespace: the command's processes only. As root (commands run as a dropped
   * user), counted over every process of that host user. Default 1,024.
   */
  processes?: number;
  /**
   * Address space of each process (RLIMIT_AS; cgroups are not used). Default 16 GiB: address space,
   * not memory used, and V8 reserves about 10 GiB for each WebAssembly memory.
   */
  memoryBytes?: number;
  /** The largest file a process may write (RLIMIT_FSIZE). Default 1 GiB. */
  fileBytes?: number;
  /** CPU seconds of each process (RLIMIT_CPU). Default 600. */
  cpuSeconds?: number;
  /** Size of the private `/tmp`, and of `/dev/shm`, each a tmpfs in memory. Default 256 MiB each. */
  tmpBytes?: number;
}

/** The defaults of {@link SandboxLimits}. */
export const defaultSandboxLimits: Readonly<Required<SandboxLimits>> = Object.freeze({
  processes: 1024,
  memoryBytes: 16 * 1024 ** 3,
  fileBytes: 1024 ** 3,
  cpuSeconds: 600,
  tmpBytes: 256 * 1024 ** 2,
});

/** The limits with their defaults, each checked to be a positive number. */
export function resolveLimits(limits: SandboxLimits | undefined): Required<SandboxLimits> {
  const resolved = { ...defaultSandboxLimits, ...limits };
  for (const [name, value] of Object.entries(resolved)) {
    if (typeof value !== 'number' || !(value > 0) || (!Number.isInteger(value) && value !== Infinity)) {
      throw new ToolgateError(
        'INVALID_DEFINITION',
        `limits.${name} is ${JSON.stringify(value)}; give a positive whole number (or Infinity to lift it)`,
      );
    }
  }
  return resolved;
}

function prlimitPath(): string {
  for (const path of ['/usr/bin/prlimit', '/bin/prlimit']) if (existsSync(path)) return path;
  throw new ToolgateError(
    'COMMAND_FAILED',
    'SandboxEnvironment limits each command with prlimit, which is not installed: install util-linux (apt-get install util-linux)',
  );
}

const limitValue = (value: number) => (value === Infinity ? 'unlimited' : String(value));

/**
 * The `prlimit` command put just before the shell, inside the sandbox (so the process count is the
 * sandbox's own, in its user namespace): soft and hard limits alike, so the command cannot raise them.
 */
export function limitArguments(limits: Required<SandboxLimits>): string[] {
  const both = (value: number) => `${limitValue(value)}:${limitValue(value)}`;
  return [
    prlimitPath(),
    `--nproc=${both(limits.processes)}`,
    `--as=${both(limits.memoryBytes)}`,
    `--fsize=${both(limits.fileBytes)}`,
    // One second between the soft and the hard limit, so the command gets SIGXCPU (named below) first.
    `--cpu=${limitValue(limits.cpuSeconds)}:${limitValue(limits.cpuSeconds === Infinity ? Infinity : limits.cpuSeconds + 1)}`,
    '--',
  ];
}

/** What each limit looks like from outside: the signal it sends, or the error it makes programs print. */
const evidence: ReadonlyArray<{ limit: ExecLimit['name']; signal?: string; pattern?: RegExp }> = [
  { limit: 'cpuSeconds', signal: 'SIGXCPU' },
  { limit: 'fileBytes', signal: 'SIGXFSZ' },
  { limit: 'cpuSeconds', pattern: /CPU time limit exceeded/i },
  { limit: 'fileBytes', pattern: /File too large/i },
  { limit: 'tmpBytes', pattern: /No space left on device/i },
  { limit: 'processes', pattern: /Resource temporarily unavailable|Cannot fork|fork: retry|EAGAIN/i },
  {
    limit: 'memoryBytes',
    pattern: /Cannot allocate memory|Out of memory|memory exhausted|bad_alloc|ENOMEM|allocation failed/i,
  },
];

const shellSignals: Record<number, string> = { 152: 'SIGXCPU', 153: 'SIGXFSZ' };

const meaning: Record<ExecLimit['name'], string> = {
  processes: 'processes (limits.processes',
  memoryBytes: 'memory (limits.memoryBytes',
  fileBytes: 'file size (limits.fileBytes',
  cpuSeconds: 'CPU time (limits.cpuSeconds',
  tmpBytes: 'the private /tmp (limits.tmpBytes',
  outputBytes: 'output kept (maxOutputBytes',
};

/**
 * The limit a finished command most likely ran into, read from how it ended (SIGXCPU, SIGXFSZ) or
 * from what it printed (`No space left on device`, `Cannot fork`, `Cannot allocate memory`), or its
 * output being cut: undefined when it shows no sign of one. An inference, never a
 * refusal: the limit itself was enforced by the kernel.
 */
export function limitReached(
  result: ExecResult,
  limits: Required<SandboxLimits>,
  maxOutputBytes: number,
): ExecLimit | undefined {
  // The shell reports a child a signal ended as 128 + the signal's number.
  const signal = result.signal ?? shellSignals[result.exitCode ?? -1];
  const tail = result.stderr.slice(-4096);
  const found = evidence.find(
    (sign) => (sign.signal !== undefined && signal === sign.signal) || sign.pattern?.test(tail) === true,
  )?.limit;
  const name =
    found ?? (result.stdoutOmittedBytes + result.stderrOmittedBytes > 0 ? 'outputBytes' : undefined);
  if (name === undefined) return undefined;
  const value = name === 'outputBytes' ? maxOutputBytes : limits[name];
  return {
    name,
    value,
    message: `the command ran into the sandbox's limit on ${meaning[name]}: ${limitValue(value)}); raise it in the environment's options if the command needs more`,
  };
}
