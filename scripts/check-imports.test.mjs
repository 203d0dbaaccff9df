// `node --test scripts/check-imports.test.mjs` (in `pnpm lint`): the import check run against small trees of its own (`--root`), so a rule
// it is meant to enforce is seen to fail.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';

const script = new URL('./check-imports.mjs', import.meta.url).pathname;
const trees = [];
after(() => {
  for (const tree of trees) rmSync(tree, { recursive: true, force: true });
});

/** A tree holding only `@toolgate/core`, whose public entry exports `count` names. */
function coreExporting(count, manifestExports = { '.': { default: './dist/index.js' } }) {
  const tree = mkdtempSync(join(tmpdir(), 'check-imports-'));
  trees.push(tree);
  mkdirSync(join(tree, 'packages', 'core', 'src', 'command-line'), { recursive: true });
  writeFileSync(join(tree, 'packages', 'core', 'package.json'), JSON.stringify({ exports: manifestExports }));
  const names = Array.from({ length: count }, (_, index) => `name${index}`);
  writeFileSync(
    join(tree, 'packages', 'core', 'src', 'index.ts'),
    `export { ${names.join(', ')} } from './names.js';\n`,
  );
  return tree;
}

const check = (tree) => spawnSync(process.execPath, [script, '--root', tree], { encoding: 'utf8' });

test("passes core's public entry at 50 names", () => {
  const result = check(coreExporting(50));
  assert.equal(result.status, 0, result.stderr);
});

test("fails core's public entry at 51 names, naming the count and the limit", () => {
  const result = check(coreExporting(51));
  assert.equal(result.status, 1);
  assert.match(
    result.stderr,
    /packages\/core\/src\/index\.ts: the public entry exports 51 names, more than its 50/,
  );
});

test('fails an entry file its package.json does not export', () => {
  const tree = coreExporting(1);
  writeFileSync(
    join(tree, 'packages', 'core', 'src', 'command-line', 'index.ts'),
    "export { parse } from './parse.js';\n",
  );
  const result = check(tree);
  assert.equal(result.status, 1);
  assert.match(
    result.stderr,
    /src\/command-line\/index\.ts exists, so "exports" and "publishConfig\.exports" need "\.\/command-line"/,
  );
});

test('fails a name exported by both the public entry and another entry', () => {
  const tree = coreExporting(2);
  writeFileSync(
    join(tree, 'packages', 'core', 'package.json'),
    JSON.stringify({
      exports: { '.': {}, './command-line': { '@toolgate/source': './src/command-line/index.ts' } },
      publishConfig: { exports: { './command-line': { default: './dist/command-line/index.js' } } },
    }),
  );
  writeFileSync(
    join(tree, 'packages', 'core', 'src', 'command-line', 'index.ts'),
    "export { name1 } from './parse.js';\n",
  );
  const result = check(tree);
  assert.equal(result.status, 1);
  assert.match(
    result.stderr,
    /src\/command-line\/index\.ts: exports name1, which the public entry exports too/,
  );
});
