#!/usr/bin/env node
// Packs every published package as a user would receive it, runs publint on the tarball, installs
// all tarballs into an empty scratch project with npm, and imports each package's entry there.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const run = (command, args, cwd) =>
  execFileSync(command, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'] }).toString();
const scratch = mkdtempSync(join(tmpdir(), 'toolgate-packs-'));
const catalog = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8');
const pinned = (name) => catalog.match(new RegExp(`["']?${name}["']?: (\\S+)`))?.[1];

try {
  const packages = readdirSync(join(root, 'packages'))
    .map((dir) => join(root, 'packages', dir))
    .filter((dir) => !JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).private);
  const tarballs = [];
  const names = [];
  for (const dir of packages) {
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const packed = run('pnpm', ['pack', '--pack-destination', scratch], dir).trim().split('\n').pop();
    run(join(root, 'node_modules/.bin/publint'), ['run', packed, '--strict'], root);
    tarballs.push(packed);
    names.push(manifest.name);
    console.log(`packed and linted ${manifest.name}`);
  }
  const project = join(scratch, 'project');
  run('mkdir', ['-p', project]);
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'scratch', private: true, type: 'module' }),
  );
  const peers = ['zod', '@modelcontextprotocol/sdk'].map((name) => `${name}@${pinned(name)}`);
  run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...tarballs, ...peers], project);
  const script = names
    .map(
      (name) =>
        `const m${names.indexOf(name)} = await import('${name}'); if (Object.keys(m${names.indexOf(name)}).length === 0) throw new Error('${name} exports nothing');`,
    )
    .join('\n');
  writeFileSync(join(project, 'check.mjs'), `${script}\nconsole.log('imported ${names.length} packages');\n`);
  console.log(run('node', ['check.mjs'], project).trim());
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
