import { type ChildProcess, spawnSync } from 'node:child_process';
import { chmodSync, linkSync, mkdirSync, readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SearchResult } from '../environment.js';
import { LocalEnvironment } from '../local-environment.js';
import { makeWorld, startSwapper, type TempWorld } from '../testing/index.js';
import { runningSearchThreads } from './search-thread.js';

const ripgrepPath = process.env.RIPGREP_PATH ?? 'rg';
const hasRipgrep = spawnSync(ripgrepPath, ['--version']).status === 0;
if (!hasRipgrep && process.env.CI) throw new Error(`ripgrep (${ripgrepPath}) must be installed in CI`);

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

const engines: ['ripgrep' | 'javascript', boolean][] = [
  ['ripgrep', hasRipgrep],
  ['javascript', true],
];

describe.each(engines)('search with the %s engine and hard links', (engine, available) => {
  it.runIf(available)(
    'leaves out a file hard-linked to one outside, unless hard-linked reads are allowed',
    async () => {
      linkSync(join(world.outside, 'secret.txt'), join(world.root, 'hard-link-out.txt'));
      const strict = new LocalEnvironment({ root: world.root, search: engine, ripgrepPath });
      const refused = await strict.search('outside secret');
      expect(refused.engine).toBe(engine);
      expect(refused.matches).toEqual([]);
      expect(refused.totalMatches).toBe(0);
      const allowing = new LocalEnvironment({
        root: world.root,
        search: engine,
        ripgrepPath,
        allowHardLinkedReads: true,
      });
      expect((await allowing.search('outside secret')).matches).toEqual([
        { path: 'hard-link-out.txt', line: 1, text: 'outside secret' },
      ]);
    },
  );
});

describe('search with ripgrep never returns a line it cannot verify inside the root', () => {
  it('drops forged, escaping, hard-linked and out-of-range lines whatever ripgrep prints', async () => {
    linkSync(join(world.outside, 'secret.txt'), join(world.root, 'hard-link-out.txt'));
    // A stand-in for a ripgrep that was led outside the root: it prints, in ripgrep's own format,
    // one true line and lines that are not content of a file inside the root.
    const lying = join(world.base, 'lying-rg.sh');
    const lines = [
      './README.md\\0001:# moss',
      './README.md\\0002:forged text',
      './link-dir-out/secret.txt\\0001:outside secret',
      './hard-link-out.txt\\0001:outside secret',
      './src/../../outside/secret.txt\\0001:outside secret',
      './src/a.ts\\0009:',
      './docs/notes.md\\0001:the moss grows',
    ];
    writeFileSync(lying, `#!/bin/sh\nprintf '${lines.join('\\n')}\\n'\n`);
    chmodSync(lying, 0o755);
    const environment = new LocalEnvironment({ root: world.root, search: 'ripgrep', ripgrepPath: lying });
    const result = await environment.search('moss|secret|forged|^$');
    expect(result).toEqual({
      matches: [
        { path: 'README.md', line: 1, text: '# moss' },
        { path: 'docs/notes.md', line: 1, text: 'the moss grows' },
      ],
      totalMatches: 2,
      engine: 'ripgrep',
      unverifiedMatches: 5,
    });
  });
});

/** Searches that must find the inside file while the swapper runs, so the test is not vacuous. */
const wantedSearches = 20;

function outsideIn(result: SearchResult): boolean {
  return result.matches.some((match) => match.text.includes('outside'));
}

describe.runIf(process.platform === 'linux')('search under a symlink-swap race', () => {
  it.each(engines)(
    'with the %s engine, never returns content from outside the root',
    async (engine, available) => {
      if (!available) return; // ripgrep missing here (never in CI: see the check above)
      mkdirSync(join(world.root, 'race'));
      writeFileSync(join(world.root, 'race', 'secret.txt'), 'inside race secret\n');
      writeFileSync(join(world.outside, 'marker-outside.txt'), 'outside marker secret\n');
      const environment = new LocalEnvironment({ root: world.root, search: engine, ripgrepPath });
      // Each ripgrep search is a process: a loaded machine can need 100 s for twenty of them.
      const attacker = await startSwapper(
        world,
        (child) => {
          swapper = child;
        },
        100_000,
      );
      let stopped = false;
      const swapsDone = attacker.done.finally(() => {
        stopped = true;
      });
      let searches = 0;
      let sawInside = 0;
      let outside = 0;
      let unverified = 0;
      try {
        const enough = () => sawInside >= wantedSearches && (engine === 'javascript' || unverified > 0);
        while (!enough() && !stopped) {
          const result = await environment.search('secret', { glob: 'race/**' });
          searches++;
          if (result.matches.some((match) => match.text === 'inside race secret')) sawInside++;
          if (outsideIn(result)) outside++;
          unverified += result.unverifiedMatches ?? 0;
        }
      } finally {
        attacker.stop();
      }
      const swaps = await swapsDone;
      expect(outside).toBe(0);
      expect(sawInside).toBeGreaterThanOrEqual(wantedSearches);
      expect(swaps).toBeGreaterThan(100);
      // The attack reached the search: some searches met the link (or the gap) and found nothing inside.
      expect(searches).toBeGreaterThan(sawInside);
      // With ripgrep the attack reached what ripgrep read (it reported lines that the file inside the
      // root did not hold, and they were dropped); the JavaScript engine never reads by name.
      if (engine === 'ripgrep') expect(unverified).toBeGreaterThan(0);
      else expect(unverified).toBe(0);
    },
    150_000,
  );
});

function descriptorsInto(directory: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync('/proc/self/fd')) {
    try {
      const target = readlinkSync(`/proc/self/fd/${name}`);
      if (target === directory || target.startsWith(`${directory}/`)) found.push(target);
    } catch {
      // Closed meanwhile.
    }
  }
  return found;
}

describe.runIf(process.platform === 'linux')('a JavaScript search terminated at its deadline', () => {
  it('leaves no descriptor open on the root, its directories or the file it was searching', async () => {
    const deep = join(world.root, 'a', 'b', 'c');
    mkdirSync(deep, { recursive: true });
    writeFileSync(join(deep, 'runaway.txt'), `${'a'.repeat(40)}!\n`);
    const environment = new LocalEnvironment({
      root: world.root,
      search: 'javascript',
      searchTimeoutMs: 1500,
    });
    await expect(environment.search('(a+)+$', { glob: 'a/**' })).rejects.toMatchObject({ code: 'TIMEOUT' });
    // The thread is terminated after the caller is answered; its slot is given back once it has stopped.
    for (let waited = 0; runningSearchThreads() > 0 && waited < 30_000; waited += 20)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(runningSearchThreads()).toBe(0);
    expect(descriptorsInto(world.root)).toEqual([]);
  }, 60_000);
});
