import { readSync, statSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeWorld, type TempWorld } from '../testing/index.js';
import {
  type AttackHolder,
  outsideSecret,
  prepareRace,
  schedules,
  scriptedSwap,
} from '../testing-fixtures/scripted-swap.js';
import { confinedFiles } from './confined-tree.js';
import { describeRoot } from './confined-walk.js';

// The synchronous walk of search, by name (no /proc/self/fd), against the scripted attacker of
// scripted-swap.ts: a walk by name cannot be made race-free, so a live race against it proves
// nothing either way; here the tree is swapped at chosen instants between the walk's real calls.
const holder = vi.hoisted((): AttackHolder => ({ attack: undefined }));
vi.mock('node:fs', async (importOriginal) => {
  const original = await importOriginal<typeof import('node:fs')>();
  const watched =
    <P extends unknown[], R>(name: string, call: (...parameters: P) => R) =>
    (...parameters: P): R => {
      try {
        return call(...parameters);
      } finally {
        holder.attack?.afterCall(name, String(parameters[0]));
      }
    };
  const openSync = (...parameters: Parameters<typeof original.openSync>) => {
    holder.attack?.beforeOpen(String(parameters[0]), Number(parameters[1] ?? 0));
    try {
      return original.openSync(...parameters);
    } finally {
      holder.attack?.afterOpen(String(parameters[0]));
    }
  };
  const realpathSync = watched('realpath', original.realpathSync as (path: string) => string);
  const lstatSync = watched('lstat', original.lstatSync);
  const statSync = watched('stat', original.statSync);
  const wrapped = { ...original, openSync, realpathSync, lstatSync, statSync };
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

/** Walks the whole tree by name under the attack on `target`; every file yielded, with its content. */
function walkUnderAttack(target: string, swapsAt: readonly number[]) {
  const root = { ...describeRoot(world.root, statSync(world.root)), throughDescriptors: false };
  const scripted = scriptedSwap(world, target, swapsAt);
  holder.attack = scripted;
  const files = new Map<string, string>();
  for (const file of confinedFiles(root)) {
    const bytes = Buffer.alloc(file.size);
    const read = readSync(file.descriptor, bytes, 0, file.size, 0);
    files.set(file.path, bytes.toString('utf8', 0, read));
  }
  return { files, scripted, seen: `${[...files.keys()].join(', ')}\n${scripted.log.join('\n')}` };
}

function outsideIn(files: Map<string, string>): string[] {
  return [...files]
    .filter(([path, content]) => path.includes('outside') || content === outsideSecret)
    .map(([path]) => path);
}

describe('confinedFiles by name, verified after each open, against a scripted symlink swap', () => {
  // Boundaries 0…5 cover the whole check (resolve, lstat per component, resolve again) and more.
  it.each(schedules(5, 2).map((swapsAt) => [swapsAt.join(',') || 'none', swapsAt]))(
    'never yields a file opened through the link (swaps after the open at %s)',
    (_label, swapsAt) => {
      const { files, scripted, seen } = walkUnderAttack('race/secret.txt', swapsAt);
      expect(scripted.fired, seen).toBe(true);
      expect(files.has('race/secret.txt'), seen).toBe(false);
      expect(outsideIn(files), seen).toEqual([]);
      expect(files.get('docs/notes.md'), seen).toBe('the moss grows\n');
    },
  );

  // {0, 1}: back to the directory before the path is resolved, to the link right after. The former
  // check (realpath, then stat of the result) let such a directory through; only the check of each
  // file in it kept its content out.
  it.each([[[0]], [[0, 1]]])('never enters a directory opened through the link (swaps at %j)', (swapsAt) => {
    const { files, scripted, seen } = walkUnderAttack('race/sub', swapsAt);
    expect(scripted.fired, seen).toBe(true);
    expect(outsideIn(files), seen).toEqual([]);
    expect(files.has('race/sub/outside-only.txt'), seen).toBe(false);
  });
});
