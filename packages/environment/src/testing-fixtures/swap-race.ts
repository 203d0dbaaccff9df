import type { ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ToolgateError } from '@toolgate/core';
import type { Environment } from '../environment.js';
import { startSwapper, type TempWorld } from '../testing/index.js';

/** The content of `race/secret.txt` inside the root; anything else read there came from outside. */
export const insideSecret = 'inside race secret\n';

/** What the victim saw during a race. */
export interface RaceTally {
  reads: number;
  outsideReads: number;
  writes: number;
  listings: number;
  outsideListings: number;
  globs: number;
  outsideGlobs: number;
  refusals: number;
  refusalCodes: Set<string>;
  swaps: number;
}

/**
 * Runs the attack: `race/` holds `secret.txt` inside the root, `outside/` holds `secret.txt` and
 * `marker-outside.txt`; while the swapper swaps `race` with a link to `outside`, four workers read
 * `race/secret.txt`, write `race/w….txt` and `race/d…/w.txt`, list `race` and glob, until each kind
 * of operation has succeeded `wanted` times and as many calls were refused (the attack reached the
 * victim), or the swapper stopped on its own (then the tally shows too few).
 */
export async function raceEnvironment(
  environment: Environment,
  world: TempWorld,
  wanted: number,
  started: (child: ChildProcess) => void,
): Promise<RaceTally> {
  mkdirSync(join(world.root, 'race'));
  writeFileSync(join(world.root, 'race', 'secret.txt'), insideSecret);
  writeFileSync(join(world.outside, 'marker-outside.txt'), 'only outside\n');
  const swapper = await startSwapper(world, started);
  let finished = false;
  const swaps = swapper.done.finally(() => {
    finished = true;
  });
  const tally: RaceTally = {
    reads: 0,
    outsideReads: 0,
    writes: 0,
    listings: 0,
    outsideListings: 0,
    globs: 0,
    outsideGlobs: 0,
    refusals: 0,
    refusalCodes: new Set(),
    swaps: 0,
  };
  const enough = () =>
    Math.min(tally.reads, tally.writes, tally.listings, tally.globs) >= wanted && tally.refusals >= wanted;
  const worker = async (index: number) => {
    for (let round = 0; !finished && !enough(); round++) {
      // Every other write also makes a parent directory, which must not be made outside either.
      const name = round % 2 === 0 ? `race/w${index}-${round}.txt` : `race/d${index}-${round}/w.txt`;
      const outcomes = await Promise.allSettled([
        environment.readFile('race/secret.txt'),
        environment.writeFile(name, `written ${name}\n`),
        environment.listDirectory('race'),
        environment.glob(round % 2 === 0 ? 'race/*' : '**/*.txt'),
      ]);
      const [read, write, list, glob] = outcomes;
      if (read.status === 'fulfilled') {
        tally.reads++;
        if (read.value.content !== insideSecret.trimEnd()) tally.outsideReads++;
      }
      if (write.status === 'fulfilled') tally.writes++;
      if (list.status === 'fulfilled') {
        tally.listings++;
        if (list.value.entries.some((entry) => entry.name === 'marker-outside.txt')) tally.outsideListings++;
      }
      if (glob.status === 'fulfilled') {
        tally.globs++;
        if (glob.value.paths.some((path) => path.endsWith('marker-outside.txt'))) tally.outsideGlobs++;
      }
      for (const outcome of outcomes) {
        if (outcome.status === 'rejected') {
          tally.refusals++;
          const reason = outcome.reason;
          tally.refusalCodes.add(ToolgateError.is(reason) ? reason.code : String(reason));
        }
      }
    }
  };
  await Promise.all([0, 1, 2, 3].map(worker));
  swapper.stop();
  tally.swaps = await swaps;
  return tally;
}
