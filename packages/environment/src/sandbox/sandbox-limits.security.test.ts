import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runScript } from '../test-support/run-script.js';
import {
  giveToSandboxUser,
  makeWorld,
  sandboxSkipReason,
  sandboxTestUser,
  type TempWorld,
} from '../testing/index.js';
import { limitAttacks, runLimitAttacks, smallLimits } from '../testing-fixtures/sandbox-attacks.js';
import { SandboxEnvironment } from './index.js';

let world: TempWorld;
beforeEach(() => {
  world = makeWorld();
  giveToSandboxUser(world.root);
});
afterEach(() => world.cleanup());

const isRoot = process.getuid?.() === 0;
const attackScript = new URL('../testing-fixtures/sandbox-attacks.ts', import.meta.url).pathname;
const everyLimit = {
  ...Object.fromEntries(Object.keys(limitAttacks).map((name) => [name, name])),
  after: 'answered\n',
};

describe.skipIf(sandboxSkipReason() !== undefined)('SandboxEnvironment limits', () => {
  it('ends a fork bomb, a memory hog, a /tmp filler, a big file and a busy loop on their limits', async () => {
    const environment = new SandboxEnvironment({ root: world.root, limits: smallLimits });
    expect(await runLimitAttacks(environment)).toEqual(everyLimit);
  }, 180_000);

  it.skipIf(!isRoot)(
    'does the same run as an unprivileged user (nobody), from a root test',
    async () => {
      const run = await runScript(attackScript, ['limits'], { user: sandboxTestUser });
      expect(run.stderr).toBe('');
      expect(JSON.parse(run.stdout)).toEqual(everyLimit);
    },
    180_000,
  );

  it('names the limit with its value and option in the result', async () => {
    const environment = new SandboxEnvironment({ root: world.root, limits: smallLimits });
    const filler = await environment.exec(limitAttacks.tmpBytes ?? '');
    expect(filler.limit).toEqual({
      name: 'tmpBytes',
      value: smallLimits.tmpBytes,
      message: expect.stringContaining('limit on the private /tmp (limits.tmpBytes: 8388608)'),
    });
    const quiet = new SandboxEnvironment({ root: world.root, maxOutputBytes: 10 });
    const chatty = await quiet.exec('seq 1 100');
    expect(chatty.limit).toMatchObject({ name: 'outputBytes', value: 10 });
    expect(chatty.stdoutOmittedBytes).toBeGreaterThan(0);
    // Without a sign of a limit, there is none.
    expect((await environment.exec('exit 3')).limit).toBeUndefined();
  });

  it('refuses a command past maxConcurrentCommands, and answers once one ends', async () => {
    const environment = new SandboxEnvironment({ root: world.root, maxConcurrentCommands: 1 });
    const controller = new AbortController();
    const first = environment.exec('sleep 300', { signal: controller.signal });
    await expect(environment.exec('echo second')).rejects.toMatchObject({
      code: 'COMMAND_FAILED',
      message: expect.stringMatching(/its limit \(maxConcurrentCommands 1\); "echo second" was not started/),
    });
    controller.abort();
    await expect(first).rejects.toMatchObject({ code: 'CANCELLED' });
    expect((await environment.exec('echo third')).stdout).toBe('third\n');
  });

  it('refuses limits that are not positive whole numbers', () => {
    expect(() => new SandboxEnvironment({ root: world.root, limits: { processes: 0 } })).toThrow(
      expect.objectContaining({
        code: 'INVALID_DEFINITION',
        message: expect.stringMatching(/limits\.processes is 0/),
      }),
    );
  });
});
