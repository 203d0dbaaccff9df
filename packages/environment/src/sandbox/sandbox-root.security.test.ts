import { chmodSync, chownSync, closeSync, mkdirSync, openSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runScript } from '../test-support/run-script.js';
import {
  giveToSandboxUser,
  makeWorld,
  sandboxSkipReason,
  sandboxTestUser,
  type TempWorld,
} from '../testing/index.js';
import { procAttack, rootOnlyTargets } from '../testing-fixtures/sandbox-attacks.js';
import { SandboxEnvironment } from './index.js';

let world: TempWorld;
beforeEach(() => {
  world = makeWorld();
});
afterEach(() => world.cleanup());

const isRoot = process.getuid?.() === 0;
const attackScript = new URL('../testing-fixtures/sandbox-attacks.ts', import.meta.url).pathname;

describe.skipIf(sandboxSkipReason() !== undefined)('SandboxEnvironment never runs global root inside', () => {
  it('opens no root-only /proc file for writing, as this process (root in CI)', async () => {
    giveToSandboxUser(world.root);
    const attack = await procAttack(new SandboxEnvironment({ root: world.root }));
    expect(attack).toEqual({ uid: expect.any(Number), opened: [], writable: [] });
    if (isRoot) {
      expect(attack.uid).toBe(sandboxTestUser.uid);
      // The same open on the host, as this root process, passes: the attack would see a leak.
      const descriptor = openSync('/proc/sys/kernel/core_pattern', 'a');
      closeSync(descriptor);
    }
  });

  it.skipIf(!isRoot)(
    'opens none either as an unprivileged user (nobody), run from a root test',
    async () => {
      // Without root, bubblewrap makes a user namespace of that user: the other way the sandbox runs.
      const run = await runScript(attackScript, ['proc'], { user: sandboxTestUser });
      expect(run.stderr).toBe('');
      expect(JSON.parse(run.stdout)).toEqual({ uid: sandboxTestUser.uid, opened: [], writable: [] });
    },
    120_000,
  );

  it.skipIf(!isRoot)('runs commands as the workspace owner, and files they create are theirs', async () => {
    const owner = { uid: 4321, gid: 4321 };
    chownSync(world.root, owner.uid, owner.gid);
    const result = await new SandboxEnvironment({ root: world.root }).exec(
      'id -u; id -g; echo made > made.txt',
    );
    expect(result.stdout).toBe('4321\n4321\n');
    expect(statSync(join(world.root, 'made.txt'))).toMatchObject(owner);
  });

  it.skipIf(!isRoot)('refuses a root-owned workspace it cannot write as nobody, saying what to do', () => {
    chmodSync(world.root, 0o755);
    expect(() => new SandboxEnvironment({ root: world.root })).toThrow(
      expect.objectContaining({
        code: 'COMMAND_FAILED',
        message: expect.stringMatching(
          /run as uid 65534 .*cannot enter and write the workspace root.*chown -R 65534:65534/s,
        ),
      }),
    );
    expect(() => new SandboxEnvironment({ root: world.root, sandboxUser: { uid: 0, gid: 0 } })).toThrow(
      expect.objectContaining({
        code: 'INVALID_DEFINITION',
        message: expect.stringMatching(/never used inside/),
      }),
    );
  });

  it('refuses sandboxUser without root (run as nobody when this process is root)', async () => {
    const run = await runScript(attackScript, ['sandbox-user'], isRoot ? { user: sandboxTestUser } : {});
    expect(JSON.parse(run.stdout)).toEqual({
      code: 'INVALID_DEFINITION',
      message: expect.stringMatching(/needs a root process to switch to/),
    });
  }, 120_000);

  it('refuses to construct when the probe finds a root-only /proc file writable inside', () => {
    giveToSandboxUser(world.root);
    // A bubblewrap that runs its command unsandboxed, with every /proc test answered "writable".
    const leaky = join(world.base, 'bin');
    mkdirSync(leaky);
    const bwrap = join(leaky, 'bwrap');
    writeFileSync(bwrap, `#!/bin/sh\necho "writable ${rootOnlyTargets[0]}"; echo probed\n`);
    chmodSync(bwrap, 0o755);
    expect(() => new SandboxEnvironment({ root: world.root, bubblewrapPath: bwrap })).toThrow(
      expect.objectContaining({
        code: 'COMMAND_FAILED',
        message: expect.stringMatching(
          /leaves root-only files of \/proc writable \(\/proc\/sys\/kernel\/core_pattern\)/,
        ),
      }),
    );
  });
});
