import { type ChildProcess, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ToolResult } from '@toolgate/core';
import { LocalEnvironment } from '@toolgate/environment';
import { makeWorld, startSwapper, type TempWorld } from '@toolgate/environment/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { builtinAgent } from './testing-fixtures/agent.js';

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

const tools = ['read_file', 'write_file', 'list_dir', 'glob', 'search_files'] as const;
type ToolName = (typeof tools)[number];

/** Successful calls each tool must make while the swapper runs, so the test cannot pass vacuously. */
const wantedSuccesses = 30;
const insideSecret = 'inside race secret';

// The race-free guarantee is made for Linux (descriptor paths through /proc; see the environment's
// README). Both search engines are attacked; ripgrep is required in CI (checked above).
describe.runIf(process.platform === 'linux')(
  'the built-in tools through a gate under a symlink-swap race',
  () => {
    it.each([
      ['ripgrep', hasRipgrep],
      ['javascript', true],
    ] as const)(
      'return nothing from outside the root and write nothing there (search engine: %s)',
      async (engine, available) => {
        if (!available) return; // ripgrep missing on this machine (never in CI: see above)
        // The outside holds a unique marker in a file's name and in file contents: a result that shows
        // it, in any field, came from outside the root.
        const marker = `OUTSIDE-${randomUUID()}`;
        writeFileSync(join(world.outside, 'secret.txt'), `outside secret ${marker}\n`);
        writeFileSync(join(world.outside, `${marker}.txt`), `${marker} secret\n`);
        const outsideBefore = readdirSync(world.outside).sort();
        mkdirSync(join(world.root, 'race'));
        writeFileSync(join(world.root, 'race', 'secret.txt'), `${insideSecret}\n`);

        const agent = builtinAgent(
          new LocalEnvironment({ root: world.root, search: engine, ripgrepPath, searchTimeoutMs: 30_000 }),
        );
        const attacker = await startSwapper(world, (child) => {
          swapper = child;
        });
        let stopped = false;
        const swapsDone = attacker.done.finally(() => {
          stopped = true;
        });

        const successes = Object.fromEntries(tools.map((tool) => [tool, 0])) as Record<ToolName, number>;
        let insideFound = 0;
        let refusals = 0;
        const leaks: string[] = [];
        // Enough once every tool kept working through the swaps and search found the inside file at
        // least once: how many rounds that takes depends on the machine's timing, not on the defence.
        const enough = () =>
          Math.min(...tools.map((tool) => successes[tool])) >= wantedSuccesses && insideFound > 0;
        const tally = (tool: ToolName, result: ToolResult) => {
          const shown = JSON.stringify(result);
          if (shown.includes(marker)) leaks.push(`${tool}: ${shown.slice(0, 300)}`);
          if (result.isError) {
            refusals++;
            return;
          }
          successes[tool]++;
          if (tool === 'search_files' && shown.includes(insideSecret)) insideFound++;
        };
        const caller = async (index: number) => {
          for (let round = 0; !stopped && !enough(); round++) {
            const name = round % 2 === 0 ? `race/w${index}-${round}.txt` : `race/d${index}-${round}/w.txt`;
            const calls: [ToolName, object][] = [
              ['read_file', { path: 'race/secret.txt' }],
              ['write_file', { path: name, content: `written ${name}\n` }],
              ['list_dir', { path: 'race' }],
              ['glob', { pattern: round % 2 === 0 ? 'race/*' : '**/*.txt' }],
              ['search_files', { pattern: 'secret', glob: 'race/**' }],
            ];
            const results = await Promise.all(
              calls.map(([tool, parameters]) => agent.callTool(tool, parameters)),
            );
            for (const [position, result] of results.entries()) tally(calls[position]![0], result);
          }
        };
        try {
          await Promise.all([0, 1, 2, 3].map(caller));
        } finally {
          attacker.stop();
        }
        const swaps = await swapsDone;

        expect(leaks).toEqual([]);
        // Nothing was created outside, and the outside files are unchanged.
        expect(readdirSync(world.outside).sort()).toEqual(outsideBefore);
        expect(readFileSync(join(world.outside, 'secret.txt'), 'utf8')).toBe(`outside secret ${marker}\n`);
        // Not vacuous: the attacker swapped many times, every tool kept working through it (search
        // found the inside file), and the attack reached the calls (some were refused).
        expect(swaps).toBeGreaterThan(100);
        for (const tool of tools) expect(successes[tool]).toBeGreaterThanOrEqual(wantedSuccesses);
        expect(insideFound).toBeGreaterThan(0);
        expect(refusals).toBeGreaterThan(0);
      },
      120_000,
    );
  },
);
