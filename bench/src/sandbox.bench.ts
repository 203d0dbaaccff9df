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

try {
  await compareLatency({
    id: 'sandbox-exec',
    title: "SandboxEnvironment.exec('true')",
    what:
      `SandboxEnvironment.exec('true') (${process.getuid?.() === 0 ? 'as root: dropped to nobody' : 'unprivileged'}, ` +
      `default limits, ${defaultProtectedPaths.length} protected paths bound) against bubblewrap spawned bare ` +
      'with the same argv, and bubblewrap without the user drop and prlimit.',
    anchor: { name: 'bwrap, same argv (spawned)', fn: () => run(bubblewrap, args) },
    subject: { name: "SandboxEnvironment.exec('true')", fn: () => environment.exec('true') },
    others: [{ name: 'bwrap without drop and prlimit', fn: () => run(bubblewrap, bareArgs) }],
  });
} finally {
  rmSync(root, { recursive: true, force: true });
}
