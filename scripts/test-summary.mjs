#!/usr/bin/env node
// Reads the output of `pnpm test` (turbo running vitest in each package) on stdin and prints one
// closing line for the whole workspace, `Tests: N passed, N failed` (and skipped, when any), after a
// line naming every package whose tests failed or did not finish. `--label L` prefixes both lines
// with the leg they belong to (`node 24`); `--json FILE` also writes the counts there.
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { label: { type: 'string' }, json: { type: 'string' } } });
const text = readFileSync(0, 'utf8').replace(/\u001b\[[0-9;]*m/g, '');
const totals = { passed: 0, failed: 0, skipped: 0 };
const failing = new Set();
for (const line of text.split('\n')) {
  const counts = line.match(/^(?:(\S+):test: )?\s*Tests\s+(.*)\(\d+\)\s*$/);
  if (counts) {
    for (const [, count, kind] of counts[2].matchAll(/(\d+) (passed|failed|skipped)/g)) {
      totals[kind] += Number(count);
      if (kind === 'failed' && Number(count) > 0) failing.add(counts[1] ?? 'a package');
    }
  }
  // turbo names every task that exited non-zero, including one that crashed before counting.
  const failed = line.match(/^\s*Failed:\s+(.*)$/);
  if (failed) for (const task of failed[1].split(/[\s,]+/)) if (task) failing.add(task.replace(/#test$/, ''));
}
const prefix = values.label ? `${values.label}: ` : '';
if (failing.size > 0) console.log(`${prefix}failing packages: ${[...failing].sort().join(', ')}`);
const skipped = totals.skipped ? `, ${totals.skipped} skipped` : '';
console.log(`${prefix}${totals.passed} passed, ${totals.failed} failed${skipped}`);
if (values.json) writeFileSync(values.json, JSON.stringify({ ...totals, failing: [...failing] }));
