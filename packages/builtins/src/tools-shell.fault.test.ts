import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LocalEnvironment } from '@toolgate/environment';
import { makeWorld, type TempWorld } from '@toolgate/environment/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinAgent, outputOf } from './testing-fixtures/agent.js';

let world: TempWorld;
beforeAll(() => {
  world = makeWorld();
});
afterAll(() => world.cleanup());

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

describe('shell tool faults', () => {
  it('kills a command that outlives its timeout, with its children', async () => {
    const agent = builtinAgent(new LocalEnvironment({ root: world.root }));
    const output = outputOf(
      await agent.callTool('shell', { command: 'sleep 30 & echo $! > kid.pid; sleep 30', timeoutMs: 400 }),
    );
    expect(output).toMatchObject({ timedOut: true, exitCode: null });
    const pid = Number(readFileSync(join(world.root, 'kid.pid'), 'utf8'));
    for (let attempt = 0; attempt < 100 && alive(pid); attempt++) await new Promise((r) => setTimeout(r, 20));
    expect(alive(pid)).toBe(false);
  });

  it("kills a command at the caller's deadline, before the timeout it asked for, and says it timed out", async () => {
    const shell = builtinAgent(new LocalEnvironment({ root: world.root }));
    // the gate's budget (here 4 s) is the deadline the shell sees; the command asked for 60 s
    const result = await shell.callTool(
      'shell',
      { command: 'sleep 30', timeoutMs: 60_000 },
      { deadline: Date.now() + 4000, timeoutMs: 60_000 },
    );
    expect(outputOf(result)).toMatchObject({ timedOut: true, exitCode: null });
  });

  it('caps a huge output with a marker saying how much was left out', async () => {
    const agent = builtinAgent(
      new LocalEnvironment({ root: world.root, maxOutputBytes: 10_000 }),
      undefined,
      {
        maxFieldChars: 50,
      },
    );
    const { stdout } = outputOf(await agent.callTool('shell', { command: 'yes | head -c 2000000' }));
    expect(stdout).toBe(
      // 50 characters as returned: each escaped "y\n" takes 3, so 16 of them and a "y" fit.
      `${'y\n'.repeat(16)}y\n[… truncated: 9967 more characters not shown]\n[… truncated: 1990000 more bytes not shown]`,
    );
  });
});
