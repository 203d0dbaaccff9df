/**
 * `LocalEnvironment.exec('true')` against a bare `spawn('sh', ['-c', 'true'])`, with no idle
 * processes on the machine and with 1,000 (BENCH_IDLE_PROCESSES). Issue 27 asks ≤ 1.3× bare spawn
 * at both. The local environment finds what a command left behind (processes that left its group
 * with `setsid`) by a marker in their environment, read from `/proc` for every process at the
 * command's end: its cost grows with the machine's process count (the sandbox's PID namespace does
 * not; see sandbox.bench.ts).
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
        `LocalEnvironment.exec('true') (its own process group, every descendant found and killed at its end) ` +
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
