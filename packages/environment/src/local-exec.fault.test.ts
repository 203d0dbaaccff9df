import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalEnvironment } from './local-environment.js';
import { makeWorld, type TempWorld } from './testing/index.js';

let world: TempWorld;
beforeEach(() => {
  world = makeWorld();
});
afterEach(() => world.cleanup());

/** True while a process exists and is not a zombie waiting to be reaped. */
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
