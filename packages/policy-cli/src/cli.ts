#!/usr/bin/env node
/**
 * The `toolgate` command: `toolgate policy check` and `toolgate policy explain`.
 *
 * @module
 */
import { main } from './cli/main.js';

main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr }).then((code) => {
  process.exitCode = code;
});
