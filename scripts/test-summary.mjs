#!/usr/bin/env node
// Reads the output of `pnpm test` (turbo running vitest in each package) on stdin and prints one
// closing line for the whole workspace, `Tests: N passed, N failed` (and skipped, when any), after a
// line naming every package whose tests failed or did not finish and a line for each failed test
// with the first line of its error (CI's record keeps only the end of the output, so the names must
// be there). `--label L` prefixes the lines with the leg they belong to (`node 24`); `--json FILE`
// also writes the counts, packages and failed tests there.
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { label: { type: 'string' }, json: { type: 'string' } } });
const text = readFileSync(0, 'utf8').replace(/\u001b\[[0-9;]*m/g, '');
const totals = { passed: 0, failed: 0, skipped: 0 };
const failing = new Set();
/** `package: file > suite > test: first error line`, once each (vitest prints a failure twice). */
const failedTests = new Map();
const lines = text.split('\n');
for (const [index, line] of lines.entries()) {
  const failedTest = line.match(/^(?:\S+:test: )?\s*FAIL\s+(\S+)\s+(\S+\.test\.[cm]?[jt]sx?\s+>.*)$/);
  if (failedTest) {
    const name = `${failedTest[1]}: ${failedTest[2].trim()}`;
    const error = lines
      .slice(index + 1, index + 12)
      .map((next) => next.replace(/^\S+:test: /, '').trim())
      .find((next) => /^[A-Za-z]*(Error|Exception)\b|^Error:|expected|timed out/i.test(next));
    if (!failedTests.has(name) || (error && !failedTests.get(name))) failedTests.set(name, error ?? '');
  }
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
for (const [name, error] of failedTests) console.log(`${prefix}failed: ${name}${error ? ` — ${error}` : ''}`);
const skipped = totals.skipped ? `, ${totals.skipped} skipped` : '';
console.log(`${prefix}${totals.passed} passed, ${totals.failed} failed${skipped}`);
if (values.json)
  writeFileSync(
    values.json,
    JSON.stringify({
      ...totals,
      failing: [...failing],
      failedTests: [...failedTests].map(([name, error]) => `${name}${error ? ` — ${error}` : ''}`),
    }),
  );
