import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LocalEnvironment } from './local-environment.js';
import { makeWorld, type TempWorld } from './testing/index.js';
import { raceEnvironment } from './testing-fixtures/swap-race.js';

// Systems without /proc/self/fd (macOS, Windows, Linux without /proc) walk by name and verify each
// open afterwards. Only the detection is replaced here, so that this Linux machine takes that path;
// the walk, the checks and the attack are all real.
vi.mock('./confined-walk.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('./confined-walk.js')>();
  return {
    ...original,
    describeRoot: (...parameters: Parameters<typeof original.describeRoot>) => ({
      ...original.describeRoot(...parameters),
      throughDescriptors: false,
    }),
  };
});

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

/** Each kind of operation must succeed this often while the swapper runs, so the test is not vacuous. */
const wantedSuccesses = 100;

describe('LocalEnvironment walking by name (no /proc/self/fd) under a symlink-swap race', () => {
  it('never returns or overwrites content outside the root; at worst it leaves empty entries there', async () => {
    const environment = new LocalEnvironment({ root: world.root });
    const tally = await raceEnvironment(environment, world, wantedSuccesses, (child) => {
      swapper = child;
    });

    expect(tally.outsideReads).toBe(0);
    expect(readFileSync(join(world.outside, 'secret.txt'), 'utf8')).toBe('outside secret\n');
    expect(readFileSync(join(world.outside, 'marker-outside.txt'), 'utf8')).toBe('only outside\n');
    const stray = readdirSync(world.outside).filter(
      (name) => !['secret.txt', 'marker-outside.txt'].includes(name),
    );
    for (const name of stray) {
      const stats = statSync(join(world.outside, name));
      expect(stats.isDirectory() ? readdirSync(join(world.outside, name)) : stats.size).toEqual(
        stats.isDirectory() ? [] : 0,
      );
    }
    expect(tally.swaps).toBeGreaterThan(100);
    expect(Math.min(tally.reads, tally.writes, tally.listings, tally.globs)).toBeGreaterThanOrEqual(
      wantedSuccesses,
    );
    expect(tally.refusals).toBeGreaterThanOrEqual(wantedSuccesses);
    console.log(
      'FALLBACK',
      JSON.stringify({ ...tally, refusalCodes: [...tally.refusalCodes], stray: stray.length }),
    );
  }, 90_000);
});
