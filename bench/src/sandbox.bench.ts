/**
 * `SandboxEnvironment.exec('true')` against bubblewrap spawned bare with the very same argv (the
 * user drop and limits included), and against bubblewrap with only the namespaces and mounts, so
 * the cost of the exec machinery and of the drop-and-limit chain read apart.
 */
import { spawn } from 'node:child_process';
import { chownSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultProtectedPaths, SandboxEnvironment } from '@toolgate/environment';
import { compareLatency } from './compare.js';

const root = mkdtempSync(join(tmpdir(), 'toolgate-bench-sandbox-'));
// Every protected path exists, so each run binds the same paths and makes no placeholder.
for (const path of defaultProtectedPaths) mkdirSync(join(root, path), { recursive: true });
if (process.getuid?.() === 0) {
  chownSync(root, 65534, 65534);
}
const environment = new SandboxEnvironment({ root });
const proxied = new SandboxEnvironment({ root, network: 'policy', egressJudge: () => true });
/** Idle processes started before measuring (BENCH_IDLE_PROCESSES, default 1,000): exec must not scan them. */
const idleCount = Number(process.env.BENCH_IDLE_PROCESSES ?? 1000);
const argv = environment.commandLine('true');
const [bubblewrap, ...args] = argv as [string, ...string[]];
const shellAt = args.indexOf('/bin/sh');
// The same bubblewrap arguments without the drop (setpriv, env) and prlimit in front of the shell.
const firstInner = args.findIndex((arg) => arg.endsWith('/setpriv') || arg.endsWith('/prlimit'));
const bareArgs = [...args.slice(0, firstInner), ...args.slice(shellAt)];

function run(file: string, argvTail: readonly string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, argvTail, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`exit ${code}`))));
  });
}

const idle = Array.from({ length: idleCount }, () =>
  spawn('sleep', ['3600'], { stdio: 'ignore', detached: true }),
);
try {
  await compareLatency({
    id: 'sandbox-exec',
    title: "SandboxEnvironment.exec('true')",
    what:
      `SandboxEnvironment.exec('true') (${process.getuid?.() === 0 ? 'as root: dropped to nobody' : 'unprivileged'}, ` +
      `default limits, ${defaultProtectedPaths.length} protected paths bound) against bubblewrap spawned bare ` +
      `with the same argv, bubblewrap without the user drop and prlimit, and exec with network 'policy' ` +
      `(a proxy and the in-sandbox forwarder started per command); ${idleCount} idle processes on the machine.`,
    anchor: { name: 'bwrap, same argv (spawned)', fn: () => run(bubblewrap, args) },
    subject: { name: "SandboxEnvironment.exec('true')", fn: () => environment.exec('true') },
    others: [
      { name: 'bwrap without drop and prlimit', fn: () => run(bubblewrap, bareArgs) },
      { name: "exec('true'), network 'policy'", fn: () => proxied.exec('true') },
    ],
    // Issue 27: sandbox exec ≤ 1.2× bubblewrap with the same flags, with 1,000 idle processes as with none.
    maxRatio: 1.2,
  });
} finally {
  for (const child of idle) child.kill('SIGKILL');
  rmSync(root, { recursive: true, force: true });
}
