import { type ChildProcess, execFileSync } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ToolgateError } from '@toolgate/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeRoot, openRoot, PathChangedError, walkDirectories } from '../confined/confined-walk.js';
import { LocalEnvironment } from '../local-environment.js';
import { makeWorld, type TempWorld } from '../testing/index.js';
import { raceEnvironment } from '../testing-fixtures/swap-race.js';

let world: TempWorld;
let swapper: ChildProcess | undefined;
beforeEach(() => {
  world = makeWorld();
});
afterEach(() => {
  if (swapper !== undefined && swapper.exitCode === null && swapper.signalCode === null)
    swapper.kill('SIGKILL');
  swapper = undefined;
  world.cleanup();
});

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'no error';
  } catch (error) {
    return ToolgateError.is(error) ? error.code : `not a ToolgateError: ${String(error)}`;
  }
}

async function messageOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'no error';
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

const outsideSecret = 'outside secret\n';

/** Each kind of operation must succeed this often while the swapper runs, so the test is not vacuous. */
const wantedSuccesses = 100;

// The race-free guarantee is made for Linux only (descriptor paths through /proc; see the README);
// elsewhere the walk goes by name and weaker guarantees hold (local-files.fallback.security.test.ts).
describe.runIf(process.platform === 'linux')('LocalEnvironment under a symlink-swap race', () => {
  it('never reads, writes, lists or globs outside the root while a directory is swapped with a link leading out', async () => {
    const environment = new LocalEnvironment({ root: world.root });
    const tally = await raceEnvironment(environment, world, wantedSuccesses, (child) => {
      swapper = child;
    });

    expect(readdirSync(world.outside).sort()).toEqual(['marker-outside.txt', 'secret.txt']);
    expect(readFileSync(join(world.outside, 'secret.txt'), 'utf8')).toBe('outside secret\n');
    expect(tally.outsideReads).toBe(0);
    expect(tally.outsideListings).toBe(0);
    expect(tally.outsideGlobs).toBe(0);
    // Not vacuous: the attacker swapped many times, the victim kept working through it, and the
    // attack reached the victim (operations that met the link were refused).
    expect(tally.swaps).toBeGreaterThan(100);
    expect(Math.min(tally.reads, tally.writes, tally.listings, tally.globs)).toBeGreaterThanOrEqual(
      wantedSuccesses,
    );
    expect(tally.refusals).toBeGreaterThanOrEqual(wantedSuccesses);
    // Only the codes a confined refusal or a missing directory (mid-swap) may carry.
    expect(
      [...tally.refusalCodes].filter((code) => !['PATH_OUTSIDE_ROOT', 'NOT_FOUND'].includes(code)),
    ).toEqual([]);
  }, 90_000);
});

describe('LocalEnvironment and hard links', () => {
  beforeEach(() => {
    linkSync(join(world.outside, 'secret.txt'), join(world.root, 'hard-link-out.txt'));
  });

  it('refuses to read a file with a hard link outside the root, saying why and what to do', async () => {
    const environment = new LocalEnvironment({ root: world.root });
    expect(await codeOf(environment.readFile('hard-link-out.txt'))).toBe('PATH_OUTSIDE_ROOT');
    const message = await messageOf(environment.readFile('hard-link-out.txt'));
    expect(message).toContain('"hard-link-out.txt"');
    expect(message).toContain('2 hard links');
    expect(message).toContain('allowHardLinkedReads');
  });

  it('refuses to write a hard-linked file and leaves the file outside unchanged', async () => {
    const environment = new LocalEnvironment({ root: world.root, allowHardLinkedReads: true });
    expect(await codeOf(environment.writeFile('hard-link-out.txt', 'pwned\n'))).toBe('PATH_OUTSIDE_ROOT');
    expect(await messageOf(environment.writeFile('hard-link-out.txt', 'pwned\n'))).toContain('2 hard links');
    expect(readFileSync(join(world.outside, 'secret.txt'), 'utf8')).toBe(outsideSecret);
  });

  it('reads a hard-linked file only when allowHardLinkedReads is set', async () => {
    const environment = new LocalEnvironment({ root: world.root, allowHardLinkedReads: true });
    expect((await environment.readFile('hard-link-out.txt')).content).toBe('outside secret');
  });

  it('reads and rewrites a file with a single link as before', async () => {
    const environment = new LocalEnvironment({ root: world.root });
    expect((await environment.writeFile('single.txt', 'one\n')).created).toBe(true);
    expect((await environment.writeFile('single.txt', 'two\n')).created).toBe(false);
    expect((await environment.readFile('single.txt')).content).toBe('two');
  });
});

describe('LocalEnvironment parents of a write', () => {
  it('creates missing parents inside the root, and none through a link leading out', async () => {
    const environment = new LocalEnvironment({ root: world.root });
    await environment.writeFile('deep/er/file.txt', 'x\n');
    expect(readFileSync(join(world.root, 'deep', 'er', 'file.txt'), 'utf8')).toBe('x\n');
    expect(await codeOf(environment.writeFile('link-dir-out/new/dir/file.txt', 'x'))).toBe(
      'PATH_OUTSIDE_ROOT',
    );
    expect(existsSync(join(world.outside, 'new'))).toBe(false);
  });
});

describe('LocalEnvironment file kinds', () => {
  it('refuses to write a FIFO without waiting for a reader', async () => {
    execFileSync('mkfifo', [join(world.root, 'pipe')]);
    const environment = new LocalEnvironment({ root: world.root });
    expect(await codeOf(environment.writeFile('pipe', 'x'))).toBe('INVALID_PATH');
    expect(await codeOf(environment.readFile('pipe'))).toBe('INVALID_PATH');
  });
});

describe('confined walk', () => {
  // Only Linux has /proc/self/fd; this guards against the strong mode being silently lost there.
  it.runIf(process.platform === 'linux')('goes through descriptors on Linux, never by name', () => {
    expect(describeRoot(world.root, statSync(world.root)).throughDescriptors).toBe(true);
  });

  it('walks by name where descriptors cannot be used, still refusing links', async () => {
    const root = { ...describeRoot(world.root, statSync(world.root)), throughDescriptors: false };
    const directory = await walkDirectories(root, await openRoot(root), ['src'], false);
    await directory.handle.close();
    expect(directory.through).toBe(join(world.root, 'src'));
    await expect(walkDirectories(root, await openRoot(root), ['link-dir-out'], false)).rejects.toThrow(
      PathChangedError,
    );
  });

  it('refuses a root that was replaced by another directory', async () => {
    const root = describeRoot(world.root, statSync(world.root));
    renameSync(world.root, `${world.root}.old`);
    mkdirSync(world.root);
    expect(await codeOf(openRoot(root))).toBe('PATH_OUTSIDE_ROOT');
  });
});
