#!/usr/bin/env node
// `pnpm pack:all [DIR]`: packs every published package (each `packages/*` that is not private, as
// built) into DIR (default ./packs), then prints the lines that install the tarballs into another
// project with npm and with pnpm.
//
// npm takes the tarballs as they are: a tarball's dependency on a sibling (`@toolgate/core@0.1.0`)
// is met by the sibling tarball named on the same command line. pnpm is not: it resolves every
// dependency of a tarball from the registry first, and `@toolgate/core` is not there yet
// (ERR_PNPM_FETCH_404), so for pnpm the project's package.json gets `pnpm.overrides` pointing each
// `@toolgate/*` name at its tarball — the line printed writes them with `npm pkg set`, which needs
// nothing but npm.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

/** The published packages: directory, name and version, in a stable order. */
export function publishedPackages() {
  return readdirSync(join(root, 'packages'))
    .sort()
    .map((dir) => ({
      dir: join(root, 'packages', dir),
      ...readJson(join(root, 'packages', dir, 'package.json')),
    }))
    .filter((manifest) => !manifest.private)
    .map(({ dir, name, version }) => ({ dir, name, version }));
}

/** Packs each published package into `destination`; returns `{ name, version, tarball }` for each. */
export function packAll(destination) {
  mkdirSync(destination, { recursive: true });
  return publishedPackages().map(({ dir, name, version }) => {
    const output = execFileSync('pnpm', ['pack', '--pack-destination', destination], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const tarball = output.toString().trim().split('\n').pop();
    return { name, version, tarball };
  });
}

/**
 * The shell lines that install `packed` (tarballs) plus `extra` (registry packages such as zod)
 * into the project in the current directory: `{ npm, pnpm }`.
 */
export function installLines(packed, extra = []) {
  const tarballs = packed.map(({ tarball }) => tarball).join(' ');
  const overrides = packed.map(({ name, tarball }) => `pnpm.overrides.${name}=file:${tarball}`).join(' ');
  const names = packed.map(({ name }) => name).join(' ');
  return {
    npm: `npm install ${tarballs}${extra.length ? ` ${extra.join(' ')}` : ''}`,
    pnpm: `npm pkg set ${overrides} && pnpm add ${names}${extra.length ? ` ${extra.join(' ')}` : ''}`,
  };
}

function readJson(path) {
  return JSON.parse(readFileSync(path, 'utf8'));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const destination = resolve(process.argv[2] ?? join(root, 'packs'));
  const packed = packAll(destination);
  for (const { name, version, tarball } of packed) {
    console.log(`packed ${name}@${version}  ${tarball}`);
  }
  const lines = installLines(packed, ['zod']);
  console.log(`
Install them in your project (an ESM project: "type": "module"), all of them or the ones you need
(a package needs its @toolgate dependencies' tarballs beside it); add @modelcontextprotocol/sdk for
the MCP packages, ai@7 for @toolgate/ai-sdk, @openai/agents for @toolgate/openai-agents.

with npm:
  ${lines.npm}

with pnpm (pnpm resolves a tarball's @toolgate dependencies from the registry unless overridden):
  ${lines.pnpm}
`);
}
