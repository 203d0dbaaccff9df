import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalEnvironment } from '../local-environment.js';
import { makeWorld, type TempWorld } from '../testing/index.js';
import { setCallCgroups } from './call-cgroup.js';

let world: TempWorld;
beforeEach(() => {
  world = makeWorld();
});
afterEach(() => world.cleanup());

/**
 * True while a process exists and is not a zombie. A zombie has exited; it only waits for its parent
 * to collect it, and a container's PID 1 (as on this machine) may never do so.
 */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** A shell loop that waits until the background process has written its pid, whatever the machine's load. */
const waitFor = (file: string) => `while [ ! -s ${file} ]; do sleep 0.05; done`;

/** The pid a command wrote to `file` in the workspace. */
function pidIn(file: string): number {
  return Number(readFileSync(join(world.root, file), 'utf8'));
}

async function until(condition: () => boolean, attempts = 100): Promise<boolean> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return condition();
}

describe('LocalEnvironment exec faults', () => {
  it('kills a command that outlives its timeout together with its children', async () => {
    const environment = new LocalEnvironment({ root: world.root });
    const result = await environment.exec(
      'sleep 30 & echo $! > child.pid; (sleep 30; echo late > late.txt) & echo $! > grandchild.pid; echo started; wait',
      { timeoutMs: 500 },
    );
    expect(result).toMatchObject({ timedOut: true, exitCode: null, stdout: 'started\n' });
    const pids = ['child.pid', 'grandchild.pid'].map((file) =>
      Number(readFileSync(join(world.root, file), 'utf8')),
    );
    expect(await until(() => pids.every((pid) => !alive(pid)))).toBe(true);
  });

  it('kills background processes left behind when the shell exits', async () => {
    const environment = new LocalEnvironment({ root: world.root });
    const result = await environment.exec('sleep 30 & echo $! > bg.pid; echo done', { timeoutMs: 10_000 });
    expect(result).toMatchObject({ timedOut: false, exitCode: 0, stdout: 'done\n' });
    const pid = Number(readFileSync(join(world.root, 'bg.pid'), 'utf8'));
    expect(await until(() => !alive(pid))).toBe(true);
  });

  it('returns at the timeout and kills a setsid descendant that left the process group', async () => {
    const environment = new LocalEnvironment({ root: world.root });
    const started = Date.now();
    const result = await environment.exec(
      `setsid sh -c 'echo $$ > setsid.pid; exec sleep 300' & ${waitFor('setsid.pid')}; echo started; sleep 300`,
      { timeoutMs: 5000 },
    );
    // A hang would last 300 s; the bound only guards against that, not against a slow machine.
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(result).toMatchObject({ timedOut: true, exitCode: null, stdout: 'started\n' });
    expect(await until(() => !alive(pidIn('setsid.pid')), 1000)).toBe(true);
  }, 90_000);

  it('returns when the shell exits although a setsid child still holds the output pipes, and kills it', async () => {
    const environment = new LocalEnvironment({ root: world.root });
    const started = Date.now();
    const result = await environment.exec(
      `setsid sh -c 'echo $$ > held.pid; exec sleep 300' & ${waitFor('held.pid')}; echo started`,
      { timeoutMs: 120_000 },
    );
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(result).toMatchObject({ timedOut: false, exitCode: 0, stdout: 'started\n' });
    expect(await until(() => !alive(pidIn('held.pid')), 1000)).toBe(true);
  }, 90_000);

  it('kills a setsid daemon that closed its output and so never held the call', async () => {
    const environment = new LocalEnvironment({ root: world.root });
    const result = await environment.exec(
      `setsid sh -c 'echo $$ > daemon.pid; exec sleep 300' </dev/null >/dev/null 2>&1 & ${waitFor('daemon.pid')}; echo started`,
    );
    expect(result).toMatchObject({ timedOut: false, exitCode: 0, stdout: 'started\n' });
    expect(await until(() => !alive(pidIn('daemon.pid')), 1000)).toBe(true);
  });

  it('still returns within the grace when a process that cleared its environment holds the pipes (the documented limit of the /proc scan, used where no cgroup can be made)', async () => {
    const environment = new LocalEnvironment({ root: world.root });
    const started = Date.now();
    setCallCgroups('scan');
    const result = await environment
      .exec(
        `setsid env -i sh -c 'echo $$ > cleared.pid; exec sleep 300' & ${waitFor('cleared.pid')}; echo started`,
      )
      .finally(() => setCallCgroups('auto'));
    const pid = pidIn('cleared.pid');
    try {
      expect(Date.now() - started).toBeLessThan(60_000);
      expect(result).toMatchObject({ timedOut: false, exitCode: 0, stdout: 'started\n' });
      // Without its tag the scan cannot find it: the call's cgroup (call-processes.fault.test.ts) and
      // SandboxEnvironment's PID namespace close this.
      expect(alive(pid)).toBe(true);
    } finally {
      process.kill(pid, 'SIGKILL');
    }
  }, 90_000);

  it('kills the processes of a running command when this process exits mid-call', async () => {
    // A separate Node process runs the built package, starts a command, and exits while it runs.
    const entry = pathToFileURL(join(import.meta.dirname, '..', '..', 'dist', 'index.js')).href;
    const script = `
      import { LocalEnvironment } from ${JSON.stringify(entry)};
      import { existsSync } from 'node:fs';
      const environment = new LocalEnvironment({ root: ${JSON.stringify(world.root)} });
      void environment.exec("setsid sh -c 'echo $$ > orphan.pid; exec sleep 300' & echo $$ > shell.pid; sleep 300");
      const poll = setInterval(() => {
        if (existsSync('orphan.pid') && existsSync('shell.pid')) { clearInterval(poll); process.exit(0); }
      }, 20);`;
    const host = spawn(process.execPath, ['--input-type=module', '-e', script], {
      cwd: world.root,
      stdio: 'ignore',
    });
    expect(await new Promise((resolve) => host.once('exit', resolve))).toBe(0);
    expect(await until(() => !alive(pidIn('shell.pid')), 1000)).toBe(true);
    expect(await until(() => !alive(pidIn('orphan.pid')), 1000)).toBe(true);
  }, 90_000);

  it('caps a huge output and counts the bytes it left out', async () => {
    const environment = new LocalEnvironment({ root: world.root, maxOutputBytes: 1000 });
    const result = await environment.exec(
      'head -c 5000000 /dev/zero | tr "\\0" x; head -c 3000 /dev/zero >&2',
    );
    expect(result.stdout).toBe('x'.repeat(1000));
    expect(result.stdoutOmittedBytes).toBe(5_000_000 - 1000);
    expect(result.stderrOmittedBytes).toBe(2000);
    expect(result.exitCode).toBe(0);
  });

  it('reports a shell that cannot start as COMMAND_FAILED', async () => {
    const environment = new LocalEnvironment({ root: world.root, shell: join(world.root, 'no-such-shell') });
    await expect(environment.exec('true')).rejects.toMatchObject({ code: 'COMMAND_FAILED' });
  });

  it('refuses an empty command line', async () => {
    await expect(new LocalEnvironment({ root: world.root }).exec('  ')).rejects.toMatchObject({
      code: 'COMMAND_FAILED',
    });
  });
});
