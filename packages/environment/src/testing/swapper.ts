import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TempWorld } from './world.js';

// The attacker of the symlink-race tests, run as its own Node process: it keeps swapping the
// directory `<root>/race` with a symbolic link to `outside`, so that `race` is a real directory
// inside the root one moment and a link leading out the next. Node has no RENAME_EXCHANGE, so each
// swap is four renames; a directory the victim created in a gap is removed so the swap goes on.
// It prints "ready" once the link exists; it stops when `stopFile` appears (or after `maxMs`, so it
// can never run away) and prints "swaps <N>", the number of moments `race` was a link. Kept as
// source text so it runs the same from this package's source and from its build.
const swapperSource = `
import { existsSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';

const [root, outside, stopFile, maxMsText] = process.argv.slice(1);
const race = join(root, 'race');
const parked = join(root, 'race.real');
const link = join(root, 'race.link');
symlinkSync(outside, link);
process.stdout.write('ready\\n');

function move(from, to) {
  for (let attempt = 0; attempt < 100_000; attempt++) {
    try {
      renameSync(from, to);
      return;
    } catch (error) {
      if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST' && error.code !== 'EISDIR') throw error;
      try {
        rmSync(to, { recursive: true, force: true });
      } catch {
        // The victim wrote into it meanwhile: try again.
      }
    }
  }
}

const stopAt = Date.now() + Number(maxMsText);
let swaps = 0;
while (Date.now() < stopAt && (swaps % 64 !== 0 || !existsSync(stopFile))) {
  move(race, parked);
  move(link, race);
  swaps++;
  move(race, link);
  move(parked, race);
}
process.stdout.write('swaps ' + swaps + '\\n');
`;

/** Guards only against a hang: the swapper stops itself after this long, unless told otherwise. */
const swapperMaxMs = 45_000;

/** A running swapper process (see {@link startSwapper}). */
export interface Swapper {
  /** The process, for killing it in a test's clean-up. */
  readonly child: ChildProcess;
  /** Resolves with the number of swaps once the swapper has stopped (rejects if it failed). */
  readonly done: Promise<number>;
  /** Asks the swapper to stop; `done` then resolves. */
  stop(): void;
}

/**
 * Starts the attacker of the symlink-race tests on `world`: a separate Node process that swaps the
 * directory `world.root/race` (which must exist) with a symbolic link to `world.outside`, as fast as
 * it can, until stopped (or for `maxMs` at most, 45 s unless given: keep it under the test's timeout).
 * Resolves once the link exists. `started` receives the
 * process at once, so the caller can always kill it (`child.kill('SIGKILL')`) in its clean-up.
 *
 * @example
 * const swapper = await startSwapper(world, (child) => { spawned = child; });
 * try { ...attack... } finally { swapper.stop(); }
 * const swaps = await swapper.done;
 */
export function startSwapper(
  world: TempWorld,
  started: (child: ChildProcess) => void,
  maxMs = swapperMaxMs,
): Promise<Swapper> {
  const stopFile = join(world.base, 'stop-swapping');
  const child = spawn(
    process.execPath,
    ['--input-type=module', '--eval', swapperSource, world.root, world.outside, stopFile, String(maxMs)],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  started(child);
  let output = '';
  let errors = '';
  child.stderr.on('data', (chunk) => {
    errors += chunk;
  });
  const done = new Promise<number>((resolve, reject) => {
    child.on('close', (code) => {
      const swaps = /swaps (\d+)/.exec(output);
      if (code === 0 && swaps) resolve(Number(swaps[1]));
      else reject(new Error(`the swapper ended with ${code}: ${errors}`));
    });
  });
  // Whoever awaits `done` sees a failure; this only keeps an early one from going unhandled.
  done.catch(() => {});
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (output.includes('ready\n')) resolve({ child, done, stop: () => writeFileSync(stopFile, '') });
    });
    done.catch(reject);
  });
}
