/**
 * `LocalEnvironment.exec('true')` against a bare `spawn('sh', ['-c', 'true'])`, with no idle
 * processes on the machine and with 1,000 (BENCH_IDLE_PROCESSES). Issue 27 asks ≤ 1.3× bare spawn
 * at both. The local environment finds what a command left behind (processes that left its group
 * with `setsid`) in the call's own cgroup where it can make one (cgroup v1 `pids`, taken from a small
 * per-thread pool of emptied ones: the cost of the call's processes only), else by a marker in their
 * environment, read from `/proc` for every process (a cost that grows with the machine's process
 * count). The row says which was used.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalEnvironment } from '@toolgate/environment';
import { compareLatency } from './compare.js';

const root = mkdtempSync(join(tmpdir(), 'toolgate-bench-local-exec-'));
const environment = new LocalEnvironment({ root });
const idleCount = Number(process.env.BENCH_IDLE_PROCESSES ?? 1000);
/** Seen from inside a command: is it in a call cgroup (`toolgate-pool-…`), or tracked by the scan? */
const tracking = (await environment.exec('cat /proc/self/cgroup')).stdout.includes('/toolgate-pool-')
  ? "the call's cgroup"
  : 'a /proc scan (no writable cgroup v1 pids hierarchy here)';

function bare(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', 'true'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`exit ${code}`))));
  });
}

async function compareWith(idle: number): Promise<void> {
  const sleepers = Array.from({ length: idle }, () =>
    spawn('sleep', ['3600'], { stdio: 'ignore', detached: true }),
  );
  try {
    await compareLatency({
      id: `local-exec-${idle}-idle`,
      title: `LocalEnvironment.exec('true') with ${idle.toLocaleString('en-US')} idle processes`,
      what:
        `LocalEnvironment.exec('true') (its own process group, every descendant found through ${tracking} and killed at its end) ` +
        `against a bare spawn('sh', ['-c', 'true']), with ${idle} idle processes on the machine.`,
      anchor: { name: "spawn('sh', ['-c', 'true'])", fn: bare },
      subject: { name: "LocalEnvironment.exec('true')", fn: () => environment.exec('true') },
      maxRatio: 1.3,
    });
  } finally {
    for (const child of sleepers) child.kill('SIGKILL');
  }
}

try {
  await compareWith(0);
  await compareWith(idleCount);
} finally {
  rmSync(root, { recursive: true, force: true });
}
