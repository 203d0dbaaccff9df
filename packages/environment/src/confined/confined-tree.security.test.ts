import type { ChildProcess } from 'node:child_process';
import { linkSync, mkdirSync, readSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeWorld, startSwapper, type TempWorld } from '../testing/index.js';
import { confinedFiles } from './confined-tree.js';
import { describeRoot } from './confined-walk.js';

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

function contentOf(descriptor: number, size: number): string {
  const bytes = Buffer.alloc(size);
  let filled = 0;
  while (filled < size) {
    const read = readSync(descriptor, bytes, filled, size - filled, filled);
    if (read === 0) break;
    filled += read;
  }
  return bytes.toString('utf8', 0, filled);
}

function walk(options: Parameters<typeof confinedFiles>[1] = {}): Map<string, string> {
  const root = describeRoot(world.root, statSync(world.root));
  const files = new Map<string, string>();
  for (const file of confinedFiles(root, options))
    files.set(file.path, contentOf(file.descriptor, file.size));
  return files;
}

describe('confinedFiles', () => {
  it('yields the regular files inside the root, never through a symlink, with their content', () => {
    mkdirSync(join(world.root, '.git'));
    writeFileSync(join(world.root, '.git', 'config'), 'moss\n');
    linkSync(join(world.outside, 'secret.txt'), join(world.root, 'hard-link-out.txt'));
    const files = walk({ skipDirectories: new Set(['.git']) });
    expect([...files.keys()].sort()).toEqual(['README.md', 'docs/notes.md', 'src/a.ts', 'src/b.ts']);
    expect(files.get('docs/notes.md')).toBe('the moss grows\n');
  });

  it('yields hard-linked files only when allowed, and opens only the files included', () => {
    linkSync(join(world.outside, 'secret.txt'), join(world.root, 'hard-link-out.txt'));
    expect(walk({ allowHardLinks: true }).get('hard-link-out.txt')).toBe('outside secret\n');
    expect([...walk({ include: (path) => path.endsWith('.ts') }).keys()].sort()).toEqual([
      'src/a.ts',
      'src/b.ts',
    ]);
  });
});

/** Each walk must see the inside file this often while the swapper runs, so the test is not vacuous. */
const wantedWalks = 150;

// Descriptor paths exist on Linux only (see the README). The walk by name that other systems use
// cannot be race-free; confined-tree.fallback.security.test.ts attacks its check deterministically.
describe.runIf(process.platform === 'linux')('confinedFiles under a symlink-swap race', () => {
  it('never yields a file outside the root (through descriptors) while a directory is swapped with a link leading out', async () => {
    mkdirSync(join(world.root, 'race'));
    writeFileSync(join(world.root, 'race', 'secret.txt'), 'inside race secret\n');
    writeFileSync(join(world.outside, 'marker-outside.txt'), 'only outside\n');
    // Files read before the walk reaches `race` widen the window between listing the root and entering it.
    for (let index = 0; index < 40; index++) writeFileSync(join(world.root, `filler-${index}.txt`), 'moss\n');
    const attacker = await startSwapper(world, (child) => {
      swapper = child;
    });
    let stopped = false;
    const swapsDone = attacker.done.finally(() => {
      stopped = true;
    });

    let walks = 0;
    let sawInside = 0;
    let outside = 0;
    // Walk until enough walks saw the file and at least one met the swap (a loaded machine can
    // starve the swapper for a while); only the swapper's own time limit ends it sooner.
    while ((sawInside < wantedWalks || walks === sawInside) && !stopped) {
      const files = walk();
      walks++;
      if (files.get('race/secret.txt') === 'inside race secret\n') sawInside++;
      for (const [path, content] of files) {
        if (path.includes('marker-outside') || content.includes('outside')) outside++;
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    attacker.stop();
    const swaps = await swapsDone;

    const seen = JSON.stringify({ walks, sawInside, outside, swaps });
    expect(outside, `files from outside were yielded: ${seen}`).toBe(0);
    expect(sawInside, `the swapper stopped before enough walks: ${seen}`).toBeGreaterThanOrEqual(wantedWalks);
    expect(swaps, `too few swaps: ${seen}`).toBeGreaterThan(100);
    // The attack reached the walk: some walks met the link (or the gap) and did not see the file.
    expect(walks, `no walk met the swap: ${seen}`).toBeGreaterThan(sawInside);
  }, 90_000);
});
