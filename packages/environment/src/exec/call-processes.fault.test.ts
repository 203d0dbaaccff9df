import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LocalEnvironment } from '../local-environment.js';
import { makeWorld, type TempWorld } from '../testing/index.js';
import { callCgroupsAvailable } from './call-cgroup.js';

let world: TempWorld;
beforeEach(() => {
  world = makeWorld();
});
afterEach(() => world.cleanup());
// The emptied cgroups kept for later calls go after a short wait; this file leaves none behind.
afterAll(async () => {
  if (expectCgroups)
    await vi.waitFor(() => expect(pooledCgroups()).toEqual([]), { timeout: 30_000, interval: 100 });
}, 60_000);

/** The fields before ` - ` of the mountinfo line of the cgroup v1 hierarchy that carries `pids`. */
const pidsMount = readFileSync('/proc/self/mountinfo', 'utf8')
  .split('\n')
  .map((line) => line.split(' - '))
  .find(([, after]) => {
    const [type, , options] = after?.split(' ') ?? [];
    return type === 'cgroup' && options?.split(',').includes('pids');
  })?.[0]
  ?.split(' ');
/** Where this test expects the call's cgroup to be used: as root, with such a hierarchy mounted. */
const expectCgroups = process.getuid?.() === 0 && pidsMount !== undefined;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

const waitFor = (file: string) => `while [ ! -s ${file} ]; do sleep 0.05; done`;

/** Leaves the session, double-forks (its parent exits, so it is nobody's child) and clears its environment. */
const escapee = (file: string) =>
  `setsid env -i /bin/sh -c '( /bin/sh -c "echo \\$\\$ > ${file}; exec sleep 300" & ); exit 0' & ${waitFor(file)}`;

function pidIn(file: string): number {
  return Number(readFileSync(join(world.root, file), 'utf8'));
}

async function until(condition: () => boolean, attempts = 1000): Promise<boolean> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return condition();
}

function pidsLine(): string | undefined {
  return readFileSync('/proc/thread-self/cgroup', 'utf8')
    .split('\n')
    .find((line) => line.split(':')[1]?.split(',').includes('pids'));
}

/** This process's own cgroup directory in the `pids` hierarchy, where its call cgroups are made. */
function pidsHome(): string {
  const own = pidsLine()?.split(':')[2] ?? '/';
  return join(pidsMount?.[4] ?? '/', own.slice((pidsMount?.[3] ?? '/').length - 1));
}

/** The emptied call cgroups process `pid` keeps for its later calls, with the processes each holds. */
function pooledCgroups(pid = process.pid): Array<{ name: string; members: string }> {
  return readdirSync(pidsHome())
    .filter((entry) => entry.startsWith(`toolgate-pool-${pid}-`))
    .map((name) => ({ name, members: readFileSync(join(pidsHome(), name, 'cgroup.procs'), 'utf8') }));
}

/** The `pids` cgroup a command saw itself in, from its `cat /proc/self/cgroup`. */
function seenCgroup(stdout: string): string | undefined {
  return stdout
    .split('\n')
    .find((line) => line.split(':')[1]?.split(',').includes('pids'))
    ?.split(':')[2];
}

// Without root or a `pids` hierarchy, calls fall back to the /proc scan, whose limit
// local-exec.fault.test.ts shows; CI runs as root on hosts that mount one.
describe.runIf(expectCgroups)('LocalEnvironment exec in a cgroup of its own', () => {
  it('tracks calls by cgroup here', () => {
    expect(callCgroupsAvailable()).toBe(true);
  });

  it('kills a descendant that left the session, double-forked and cleared its environment', async () => {
    const before = pidsLine();
    const result = await new LocalEnvironment({ root: world.root }).exec(
      `${escapee('gone.pid')}; echo started`,
    );
    expect(result).toMatchObject({ timedOut: false, exitCode: 0, stdout: 'started\n' });
    const pid = pidIn('gone.pid');
    try {
      expect(await until(() => !alive(pid))).toBe(true);
    } finally {
      if (alive(pid)) process.kill(pid, 'SIGKILL');
    }
    // the thread that spawned it is back in its own cgroup, and the call's cgroup, kept for the
    // next call, holds no process
    expect(pidsLine()).toBe(before);
    expect(pooledCgroups().length).toBeGreaterThan(0);
    expect(pooledCgroups().every(({ members }) => members === '')).toBe(true);
  });

  it('gives each running call a cgroup of its own, and reuses one only once every process in it is dead', async () => {
    const environment = new LocalEnvironment({ root: world.root });
    // Two at once: each waits for the other's file, so both are running together.
    const [first, second] = await Promise.all([
      environment.exec(
        `cat /proc/self/cgroup; echo > one.ready; ${waitFor('two.ready')}; ${escapee('one.pid')}`,
      ),
      environment.exec(
        `cat /proc/self/cgroup; echo > two.ready; ${waitFor('one.ready')}; ${escapee('two.pid')}`,
      ),
    ]);
    const together = [seenCgroup(first.stdout), seenCgroup(second.stdout)];
    expect(together.every((path) => path?.includes(`/toolgate-pool-${process.pid}-`))).toBe(true);
    expect(together[0]).not.toBe(together[1]);
    const escapees = [pidIn('one.pid'), pidIn('two.pid')];
    try {
      expect(await until(() => escapees.every((pid) => !alive(pid)))).toBe(true);
    } finally {
      for (const pid of escapees) if (alive(pid)) process.kill(pid, 'SIGKILL');
    }
    const next = seenCgroup((await environment.exec('cat /proc/self/cgroup')).stdout);
    expect(together).toContain(next);
    expect(pooledCgroups().every(({ members }) => members === '')).toBe(true);
  });

  it('removes the cgroups it keeps once they have waited a while for a call', async () => {
    await new LocalEnvironment({ root: world.root }).exec('true');
    expect(pooledCgroups().length).toBeGreaterThan(0);
    await vi.waitFor(() => expect(pooledCgroups()).toEqual([]), { timeout: 30_000, interval: 100 });
  }, 60_000);

  it('kills such a descendant at the timeout', async () => {
    const result = await new LocalEnvironment({ root: world.root }).exec(
      `${escapee('late.pid')}; echo started; sleep 300`,
      { timeoutMs: 3000 },
    );
    expect(result).toMatchObject({ timedOut: true, stdout: 'started\n' });
    const pid = pidIn('late.pid');
    try {
      expect(await until(() => !alive(pid))).toBe(true);
    } finally {
      if (alive(pid)) process.kill(pid, 'SIGKILL');
    }
  }, 90_000);

  it('kills such a descendant of a command run from a worker thread, or when this process exits mid-call', async () => {
    // A separate Node process runs the built package: one exec from a worker thread (with its own
    // pool of call cgroups) that returns, one from the main thread still running at exit.
    const entry = pathToFileURL(join(import.meta.dirname, '..', '..', 'dist', 'index.js')).href;
    const script = `
      import { Worker } from 'node:worker_threads';
      import { existsSync } from 'node:fs';
      const worker = new Worker(${JSON.stringify(`(async () => {
        const { LocalEnvironment } = await import(${JSON.stringify(entry)});
        const environment = new LocalEnvironment({ root: ${JSON.stringify(world.root)} });
        await environment.exec(${JSON.stringify(`${escapee('worker.pid')}; echo started`)});
      })()`)}, { eval: true });
      await new Promise((resolve, reject) => { worker.once('exit', resolve); worker.once('error', reject); });
      const { LocalEnvironment } = await import(${JSON.stringify(entry)});
      void new LocalEnvironment({ root: ${JSON.stringify(world.root)} }).exec(${JSON.stringify(`${escapee('orphan.pid')}; sleep 300`)});
      const poll = setInterval(() => {
        if (existsSync('orphan.pid')) { clearInterval(poll); process.exit(0); }
      }, 20);`;
    const host = spawn(process.execPath, ['--input-type=module', '-e', script], {
      cwd: world.root,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    expect(await new Promise((resolve) => host.once('exit', resolve))).toBe(0);
    const pids = [pidIn('worker.pid'), pidIn('orphan.pid')];
    try {
      expect(await until(() => pids.every((pid) => !alive(pid)))).toBe(true);
    } finally {
      for (const pid of pids) if (alive(pid)) process.kill(pid, 'SIGKILL');
    }
    // neither thread left a cgroup behind
    expect(pooledCgroups(host.pid)).toEqual([]);
  }, 90_000);
});
