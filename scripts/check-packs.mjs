#!/usr/bin/env node
// Packs every published package as a user would receive it, runs publint on the tarball, installs
// the tarballs into empty npm projects (all of them with their peers; and core, environment,
// builtins and the ledger packages without the MCP SDK, which they must not need) and imports each
// entry there; and installs all of them into an empty pnpm project by the line `pnpm pack:all` prints
// (the tarballs as `pnpm.overrides`), so the README's pnpm install is tried as well as npm's.
// It also refuses what a registry user would trip on: exact pins among runtime dependencies, a
// missing LICENSE or repository field, and source maps whose sources are not in the tarball.
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installLines } from './pack-all.mjs';

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
    checkPublished(manifest.name, packed);
    tarballs.push(packed);
    names.push(manifest.name);
    console.log(`packed and linted ${manifest.name}`);
  }
  const zod = `zod@${pinned('zod')}`;
  const sdk = `@modelcontextprotocol/sdk@${pinned('@modelcontextprotocol/sdk')}`;
  // the SDK's 2.x server, mcp-server's peer for the 2026-07-28 era
  const modernSdk = `@modelcontextprotocol/server@${pinned('@modelcontextprotocol/server')}`;
  // the frameworks adapters are for (peers such as `ai`), at the catalog's version
  const frameworks = [
    ...new Set(
      packages.flatMap((dir) =>
        Object.keys(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).peerDependencies ?? {}),
      ),
    ),
  ]
    .filter(
      (name) =>
        name !== 'zod' && !name.startsWith('@modelcontextprotocol/') && !name.startsWith('@toolgate/'),
    )
    .map((name) => `${name}@${pinned(name)}`);
  installAndImport('everything', names, tarballs, [zod, sdk, modernSdk, ...frameworks]);
  // pnpm resolves a tarball's @toolgate dependencies from the registry unless they are overridden.
  const packed = names.map((name, index) => ({ name, tarball: tarballs[index] }));
  installAndImport('pnpm', names, tarballs, [zod, sdk, modernSdk, ...frameworks], () => {}, {
    install: installLines(packed, [zod, sdk, modernSdk, ...frameworks]).pnpm,
  });
  // Only the MCP packages may need the SDK: the rest install and import without it — but for the
  // Agents adapter, whose framework brings an MCP client of its own (an optional dependency).
  const withoutSdk = names.filter(
    (name) =>
      !name.startsWith('@toolgate/mcp-') &&
      name !== '@toolgate/gateway' &&
      name !== '@toolgate/openai-agents',
  );
  installAndImport(
    'no-mcp-sdk',
    withoutSdk,
    withoutSdk.map((name) => tarballs[names.indexOf(name)]),
    [zod, ...frameworks.filter((peer) => !peer.startsWith('@openai/agents@'))],
    (project) => {
      if (existsSync(join(project, 'node_modules', '@modelcontextprotocol'))) {
        throw new Error('the MCP SDK was installed for packages that must not need it');
      }
    },
  );
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

/**
 * Installs tarballs (and peers) into an empty npm project — or by `options.install`, a shell line
 * run there — and imports each package's entry there.
 */
function installAndImport(label, packageNames, packageTarballs, peers, check = () => {}, options = {}) {
  const project = join(scratch, label);
  mkdirSync(project, { recursive: true });
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: label, private: true, type: 'module' }),
  );
  if (options.install) run('sh', ['-c', options.install], project);
  else
    run(
      'npm',
      ['install', '--no-audit', '--no-fund', '--loglevel=error', ...packageTarballs, ...peers],
      project,
    );
  check(project);
  const script = packageNames
    .map(
      (name, index) =>
        `const m${index} = await import('${name}'); if (Object.keys(m${index}).length === 0) throw new Error('${name} exports nothing');`,
    )
    .join('\n');
  writeFileSync(
    join(project, 'check.mjs'),
    `${script}\nconsole.log('${label}: imported ${packageNames.join(', ')}');\n`,
  );
  console.log(run('node', ['check.mjs'], project).trim());
  // The commands a package installs start from the tarball, through the bin shim npm linked.
  for (const command of ['toolgate-ledger', 'toolgate-mcp', 'toolgate-gateway']) {
    const bin = join(project, 'node_modules', '.bin', command);
    if (!existsSync(bin)) continue;
    if (!run(bin, ['--help'], project).includes(command))
      throw new Error(`${command} --help does not name itself`);
    const version = run(bin, ['--version'], project).trim();
    const installed = readdirSync(join(project, 'node_modules', '@toolgate'))
      .map((dir) =>
        JSON.parse(readFileSync(join(project, 'node_modules', '@toolgate', dir, 'package.json'), 'utf8')),
      )
      .find((manifest) => manifest.bin?.[command] !== undefined);
    if (version !== `${command} ${installed.version}`)
      throw new Error(`${command} --version printed "${version}", not "${command} ${installed.version}"`);
    console.log(`${label}: ${command} --help runs; --version prints ${installed.version}`);
  }
}

/** Fails on a tarball a registry user would trip on; the manifest read is the one that was packed. */
function checkPublished(name, tarball) {
  const files = run('tar', ['tzf', tarball], root).trim().split('\n');
  const manifest = JSON.parse(run('tar', ['xOzf', tarball, 'package/package.json'], root));
  const problems = [];
  for (const field of ['dependencies', 'peerDependencies']) {
    for (const [dependency, range] of Object.entries(manifest[field] ?? {})) {
      if (/^\d/.test(range))
        problems.push(`${field}.${dependency} is pinned to ${range}; use a range (^${range})`);
    }
  }
  if (!files.includes('package/LICENSE')) problems.push('no LICENSE file');
  for (const field of ['repository', 'homepage', 'bugs'])
    if (!manifest[field]) problems.push(`no "${field}"`);
  const maps = files.filter((file) => file.endsWith('.map'));
  if (maps.length > 0) problems.push(`ships source maps whose sources it does not ship (${maps[0]}, …)`);
  if (problems.length > 0) throw new Error(`${name}: ${problems.join('; ')}`);
}
