#!/usr/bin/env node
// Reads the output of `pnpm test` (turbo running vitest in each package) on stdin and prints one
// closing line for the whole workspace: `Tests: N passed, N failed` (and skipped, when any).
import { readFileSync } from 'node:fs';

const text = readFileSync(0, 'utf8').replace(/\u001b\[[0-9;]*m/g, '');
const totals = { passed: 0, failed: 0, skipped: 0 };
for (const line of text.split('\n')) {
  const match = line.match(/^(?:\S+:test: )?\s*Tests\s+(.*)\(\d+\)\s*$/);
  if (!match) continue;
  for (const [, count, kind] of match[1].matchAll(/(\d+) (passed|failed|skipped)/g))
    totals[kind] += Number(count);
}
const skipped = totals.skipped ? `, ${totals.skipped} skipped` : '';
console.log(`Tests: ${totals.passed} passed, ${totals.failed} failed${skipped}`);
