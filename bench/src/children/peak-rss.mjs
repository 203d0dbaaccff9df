/**
 * Preloaded with `node --import` into a command being measured: at exit, writes the process's peak
 * resident set in KiB to file descriptor 3, which the parent opened as a pipe.
 */
import { writeSync } from 'node:fs';

process.on('exit', () => {
  writeSync(3, `${process.resourceUsage().maxRSS}\n`);
});
