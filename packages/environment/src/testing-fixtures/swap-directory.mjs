// The attacker of the symlink-race test: a separate process that keeps swapping the directory
// `<root>/race` with a symbolic link to `outside`, so that `race` is a real directory inside the
// root one moment and a link leading out the next. Node has no RENAME_EXCHANGE, so each swap is
// four renames; a directory the victim created in a gap is removed so the swap goes on.
// Prints "ready" once the link exists; stops when `stopFile` appears (or after `maxMs`, so it
// can never run away) and prints "swaps <N>", the number of moments `race` was a link.
import { existsSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';

const [root, outside, stopFile, maxMsText] = process.argv.slice(2);
const race = join(root, 'race');
const parked = join(root, 'race.real');
const link = join(root, 'race.link');
symlinkSync(outside, link);
process.stdout.write('ready\n');

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
process.stdout.write(`swaps ${swaps}\n`);
