import { constants, existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ToolgateError } from '@toolgate/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  describeRoot,
  openChild,
  openRoot,
  PathChangedError,
  walkDirectories,
} from '../confined/confined-walk.js';
import { LocalEnvironment } from '../local-environment.js';
import { makeWorld, type TempWorld } from '../testing/index.js';
import {
  type AttackHolder,
  insideSecret,
  outsideSecret,
  prepareRace,
  schedules,
  scriptedSwap,
} from '../testing-fixtures/scripted-swap.js';

// Systems without /proc/self/fd (macOS, Windows, Linux without /proc) walk by name and verify each
// open afterwards. Only the detection is replaced here, so that this Linux machine takes that path.
vi.mock('../confined/confined-walk.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../confined/confined-walk.js')>();
  return {
    ...original,
    describeRoot: (...parameters: Parameters<typeof original.describeRoot>) => ({
      ...original.describeRoot(...parameters),
      throughDescriptors: false,
    }),
  };
});

// A walk by name cannot be made race-free, so a live race against it proves nothing either way;
// instead a scripted attacker (see scripted-swap.ts) swaps the tree at chosen instants between the
// real calls the walk makes. The calls themselves are real; they are only reported to the attacker.
const holder = vi.hoisted((): AttackHolder => ({ attack: undefined }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const original = await importOriginal<typeof import('node:fs/promises')>();
  const watched =
    <P extends unknown[], R>(name: string, call: (...parameters: P) => Promise<R>) =>
    async (...parameters: P): Promise<R> => {
      try {
        return await call(...parameters);
      } finally {
        holder.attack?.afterCall(name, String(parameters[0]));
      }
    };
  const open = async (...parameters: Parameters<typeof original.open>) => {
    holder.attack?.beforeOpen(String(parameters[0]), Number(parameters[1] ?? 0));
    try {
      return await original.open(...parameters);
    } finally {
      holder.attack?.afterOpen(String(parameters[0]));
    }
  };
  const realpath = watched('realpath', original.realpath as (path: string) => Promise<string>);
  const lstat = watched('lstat', original.lstat);
  const stat = watched('stat', original.stat);
  const wrapped = { ...original, open, realpath, lstat, stat };
  return { ...wrapped, default: wrapped };
});

let world: TempWorld;
beforeEach(() => {
  world = makeWorld();
  prepareRace(world);
});
afterEach(() => {
  holder.attack = undefined;
  world.cleanup();
});

function attack(...parameters: Parameters<typeof scriptedSwap> extends [unknown, ...infer R] ? R : never) {
  const scripted = scriptedSwap(world, ...parameters);
  holder.attack = scripted;
  return scripted;
}

/** The walk by name, for the steps of `confined-walk.ts` used directly. */
function rootByName() {
  return { ...describeRoot(world.root, statSync(world.root)), throughDescriptors: false };
}

describe('the walk by name, verified after each open, against a scripted symlink swap', () => {
  // Boundaries 0…5 cover the whole check (resolve, lstat per component, resolve again) and more.
  it.each(schedules(5, 2).map((swapsAt) => [swapsAt.join(',') || 'none', swapsAt]))(
    'refuses a file opened through the link, whatever the swaps after the open (at most two; at %s)',
    async (_label, swapsAt) => {
      const root = rootByName();
      const parent = await walkDirectories(root, await openRoot(root), ['race'], false);
      const scripted = attack('race/secret.txt', swapsAt);
      const opening = openChild(root, parent, 'secret.txt', {
        flags: constants.O_RDONLY | constants.O_NONBLOCK,
      });
      await expect(opening.finally(() => parent.handle.close())).rejects.toBeInstanceOf(PathChangedError);
      expect(scripted.fired, scripted.log.join('\n')).toBe(true);
    },
  );

  it('refuses the plain ABA: swapped for the open, swapped back before the check', async () => {
    const root = rootByName();
    const parent = await walkDirectories(root, await openRoot(root), ['race'], false);
    const scripted = attack('race/secret.txt', [0]);
    const opening = openChild(root, parent, 'secret.txt', {
      flags: constants.O_RDONLY | constants.O_NONBLOCK,
    });
    await expect(opening.finally(() => parent.handle.close())).rejects.toThrow('"race/secret.txt" changed');
    expect(scripted.log[0]).toBe('open race/secret.txt (race was a link)');
  });

  it('refuses a directory step opened through the link, swapped back right after the resolve', async () => {
    const root = rootByName();
    const scripted = attack('race/sub', [0, 1]);
    await expect(walkDirectories(root, await openRoot(root), ['race', 'sub'], false)).rejects.toThrow(
      '"race/sub" changed',
    );
    expect(scripted.fired).toBe(true);
  });
});

// Swaps {0, 1}: back to the directory before the path is resolved, to the link again right after.
// The former check (realpath, then stat of the result) passed that: the stat followed the link to
// the very file opened outside. All but the new-file case fail against it (checked once, by running
// them on the former check); a new file has no name inside for that resolve to find.
describe('LocalEnvironment walking by name against the swap that beat the former check', () => {
  it('never returns the file outside (refused, then the retry finds the link and refuses the path)', async () => {
    const environment = new LocalEnvironment({ root: world.root });
    const scripted = attack('race/secret.txt', [0, 1]);
    const read = await environment.readFile('race/secret.txt').catch((error: unknown) => error);
    expect(scripted.fired).toBe(true);
    // Refused, then retried: the link is back, so the path now leads out and is refused.
    expect(ToolgateError.is(read) && read.code, scripted.log.join('\n')).toBe('PATH_OUTSIDE_ROOT');
    expect(JSON.stringify(read)).not.toContain(outsideSecret.trim());
  });

  it('reads the file inside after the plain ABA', async () => {
    const environment = new LocalEnvironment({ root: world.root });
    const scripted = attack('race/secret.txt', [0]);
    const read = await environment.readFile('race/secret.txt');
    expect(scripted.fired).toBe(true);
    expect(read.content).toContain(insideSecret.trim());
    expect(read.content).not.toContain(outsideSecret.trim());
  });

  it('does not write into an existing file outside', async () => {
    const environment = new LocalEnvironment({ root: world.root });
    // The open of the existing file (without O_CREAT) is the one attacked.
    const scripted = attack('race/secret.txt', [0, 1], (flags) => (flags & constants.O_CREAT) === 0);
    await environment.writeFile('race/secret.txt', 'overwritten\n').catch(() => undefined);
    expect(scripted.fired).toBe(true);
    expect(readFileSync(join(world.outside, 'secret.txt'), 'utf8'), scripted.log.join('\n')).toBe(
      outsideSecret,
    );
  });

  it('removes a file it just created outside while the link is in place', async () => {
    const environment = new LocalEnvironment({ root: world.root });
    const scripted = attack('race/new.txt', [0, 1]);
    await environment.writeFile('race/new.txt', 'fresh\n').catch(() => undefined);
    expect(scripted.fired).toBe(true);
    expect(existsSync(join(world.outside, 'new.txt')), scripted.log.join('\n')).toBe(false);
  });

  it('lists the directory inside, never the one outside', async () => {
    const environment = new LocalEnvironment({ root: world.root });
    const scripted = attack('race/sub', [0, 1]);
    const listing = await environment.listDirectory('race/sub').catch((error: unknown) => error);
    expect(scripted.fired).toBe(true);
    expect(JSON.stringify(listing), scripted.log.join('\n')).not.toContain('outside-only');
  });
});

describe('LocalEnvironment walking by name against a swap left in place', () => {
  it('refuses to read through the link and removes nothing else', async () => {
    const environment = new LocalEnvironment({ root: world.root });
    const scripted = attack('race/secret.txt', []);
    await expect(environment.readFile('race/secret.txt')).rejects.toMatchObject({
      code: 'PATH_OUTSIDE_ROOT',
    });
    expect(scripted.fired).toBe(true);
    expect(readFileSync(join(world.outside, 'secret.txt'), 'utf8')).toBe(outsideSecret);
  });

  it('refuses to write through the link and removes the file it created outside', async () => {
    const environment = new LocalEnvironment({ root: world.root });
    const inPlace = attack('race/new.txt', []);
    await expect(environment.writeFile('race/new.txt', 'fresh\n')).rejects.toMatchObject({
      code: 'PATH_OUTSIDE_ROOT',
    });
    expect(inPlace.fired).toBe(true);
    expect(existsSync(join(world.outside, 'new.txt'))).toBe(false);
  });

  it('after the plain ABA, writes inside and leaves at most an empty file outside', async () => {
    const environment = new LocalEnvironment({ root: world.root });
    const scripted = attack('race/new.txt', [0]);
    await environment.writeFile('race/new.txt', 'fresh\n');
    expect(scripted.fired).toBe(true);
    expect(readFileSync(join(world.root, 'race', 'new.txt'), 'utf8')).toBe('fresh\n');
    // The file the open created outside can no longer be found by its name: it stays, empty.
    expect(readFileSync(join(world.outside, 'new.txt'), 'utf8')).toBe('');
  });
});
