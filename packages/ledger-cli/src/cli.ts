#!/usr/bin/env node
/**
 * The `toolgate-ledger` command: verify, show and head of a JSONL ledger file.
 *
 * @module
 */
import { main } from './cli/main.js';

const controller = new AbortController();
process.once('SIGINT', () => controller.abort());
process.once('SIGTERM', () => controller.abort());
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
});
main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  signal: controller.signal,
}).then((code) => {
  process.exitCode = code;
});
