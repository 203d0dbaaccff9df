#!/usr/bin/env node
// `pnpm release:dry`: everything a release would do short of publishing. It runs check-packs (pack
// every published package, publint it, install the tarballs with npm and with pnpm into empty
// projects, import every entry, run every command's --help and --version), then `pnpm publish -r
// --dry-run`, which packs each package as the registry would receive it; its chatter is kept
// unless it fails, and the line per package it would publish is printed.
import { spawnSync } from 'node:child_process';

const root = new URL('..', import.meta.url).pathname;
const packs = spawnSync(process.execPath, ['scripts/check-packs.mjs'], { cwd: root, stdio: 'inherit' });
if (packs.status !== 0) process.exit(packs.status ?? 1);
const publish = spawnSync('pnpm', ['publish', '-r', '--dry-run', '--no-git-checks'], {
  cwd: root,
  encoding: 'utf8',
});
const output = `${publish.stdout}${publish.stderr}`;
if (publish.status !== 0) {
  process.stderr.write(output);
  process.stderr.write(`\nrelease:dry: pnpm publish --dry-run failed (exit ${publish.status})\n`);
  process.exit(publish.status ?? 1);
}
const lines = output.split('\n').filter((line) => line.startsWith('+ '));
console.log(`pnpm publish --dry-run would publish ${lines.length} packages:\n${lines.join('\n')}`);
