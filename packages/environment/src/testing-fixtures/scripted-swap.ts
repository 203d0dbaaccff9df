import { mkdirSync, renameSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TempWorld } from '../testing/index.js';

// A deterministic symlink-swap attacker for the walk by name (no /proc/self/fd). The test files
// wrap the file-system calls the walk makes (`open`, and the `realpath`, `lstat` and `stat` of the
// check after it) and report them here. Right before the walk opens `target`, the attack turns
// `<root>/race` into a symbolic link to `outside`, so the real open follows it to a file outside
// the root. From then on it counts the calls that follow and toggles `race` back and forth (real
// directory / link out) at the chosen boundaries: boundary 0 is right after the open, boundary k
// right after the k-th call after it. Toggling at 0 alone is the plain ABA (swap, open outside,
// swap back before the check); {0, 1} beat the former check (realpath saw the directory, the stat
// of the resolved path that followed went through the link again to the file opened).

/** The content of `race/secret.txt` inside the root. */
export const insideSecret = 'inside race secret\n';

/** The content of `outside/secret.txt`; any of it coming back through the root is a breach. */
export const outsideSecret = 'outside secret\n';

/** One scripted attack; hand it the calls the walk makes through {@link AttackHolder}. */
export interface ScriptedSwap {
  /** Before an `open` (or `openSync`) of `path`: swaps `race` for the link if this is the target. */
  beforeOpen(path: string, flags: number): void;
  /** After that open, whatever its outcome. */
  afterOpen(path: string): void;
  /** After any other watched call (`realpath`, `lstat`, `stat`, and their sync forms). */
  afterCall(name: string, path: string): void;
  /** Every watched call since the open, with what `race` was when it ran: for failure messages. */
  readonly log: string[];
  /** Whether the target was opened (so the attack reached the victim). */
  readonly fired: boolean;
}

/** Where the test file's `vi.mock` factory finds the attack in progress. */
export interface AttackHolder {
  attack: ScriptedSwap | undefined;
}

/**
 * Prepares the world: `race/secret.txt` and `race/sub/inside.txt` inside the root, and
 * `outside/sub/outside-only.txt`, so that `race` swapped for a link to `outside` leads a walk to
 * files and directories of the same names outside.
 */
export function prepareRace(world: TempWorld): void {
  mkdirSync(join(world.root, 'race', 'sub'), { recursive: true });
  writeFileSync(join(world.root, 'race', 'secret.txt'), insideSecret);
  writeFileSync(join(world.root, 'race', 'sub', 'inside.txt'), 'inside\n');
  mkdirSync(join(world.outside, 'sub'));
  writeFileSync(join(world.outside, 'sub', 'outside-only.txt'), outsideSecret);
}

/**
 * An attack on the open of `<root>/<target>` (the first one for which `when(flags)` holds), that
 * toggles `race` at the boundaries in `swapsAt` (see the top of this file).
 */
export function scriptedSwap(
  world: TempWorld,
  target: string,
  swapsAt: readonly number[],
  when: (flags: number) => boolean = () => true,
): ScriptedSwap {
  const race = join(world.root, 'race');
  const parked = join(world.root, 'race.real');
  const targetPath = `${world.root}/${target}`;
  let linked = false;
  let opening = false;
  let calls: number | undefined;
  const log: string[] = [];
  const toggle = () => {
    if (linked) {
      unlinkSync(race);
      renameSync(parked, race);
    } else {
      renameSync(race, parked);
      symlinkSync(world.outside, race);
    }
    linked = !linked;
  };
  const boundary = (index: number) => {
    if (swapsAt.includes(index)) toggle();
  };
  return {
    log,
    get fired() {
      return calls !== undefined;
    },
    beforeOpen(path, flags) {
      if (calls !== undefined || path !== targetPath || !when(flags)) return;
      if (!linked) toggle();
      opening = true;
    },
    afterOpen(path) {
      if (!opening || path !== targetPath) return;
      opening = false;
      log.push(`open ${target} (race was a link)`);
      calls = 0;
      boundary(0);
    },
    afterCall(name, path) {
      if (calls === undefined || calls > Math.max(...swapsAt, 0)) return;
      calls++;
      log.push(
        `${name} ${path.slice(world.root.length + 1)} (race was ${linked ? 'a link' : 'a directory'})`,
      );
      boundary(calls);
    },
  };
}

/** Every set of at most `most` boundaries among 0…`last`: the schedules a test runs. */
export function schedules(last: number, most: number): number[][] {
  const all: number[][] = [[]];
  for (let boundary = 0; boundary <= last; boundary++) {
    for (const schedule of [...all]) if (schedule.length < most) all.push([...schedule, boundary]);
  }
  return all;
}
