#!/usr/bin/env node
// Holds the code to the arrows of ARCHITECTURE.md: every import of a sibling package or of the MCP
// SDK in a package's non-test source must be one the map allows, and must go through the sibling's
// public entry (`@toolgate/x` or `@toolgate/x/testing`), never into its files.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

/** What each package's source may import, beyond third-party libraries. Tests may also import devDependencies. */
const allowed = {
  core: [],
  environment: ['@toolgate/core'],
  builtins: ['@toolgate/core', '@toolgate/environment'],
  ledger: ['@toolgate/core'],
  'mcp-client': [
    '@toolgate/core',
    '@toolgate/environment',
    '@toolgate/builtins',
    '@modelcontextprotocol/sdk',
  ],
  'mcp-server': [
    '@toolgate/core',
    '@toolgate/environment',
    '@toolgate/builtins',
    '@modelcontextprotocol/sdk',
  ],
  // an adapter: core and its framework (a peer), nothing else of ours
  'ai-sdk': ['@toolgate/core'],
  'openai-agents': ['@toolgate/core'],
  gateway: [
    '@toolgate/core',
    '@toolgate/ledger',
    '@toolgate/mcp-client',
    '@toolgate/mcp-server',
    '@modelcontextprotocol/sdk',
  ],
};

const isTest = (file) =>
  /\.test\.ts$/.test(file) || /\/(testing-fixtures|test-support)\//.test(file) || file.endsWith('.mjs');

function* sources(dir) {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) yield* sources(path);
    else if (/\.(ts|mjs)$/.test(entry)) yield path;
  }
}

const problems = [];
for (const [name, permitted] of Object.entries(allowed)) {
  for (const file of sources(join(root, 'packages', name, 'src'))) {
    const text = readFileSync(file, 'utf8');
    for (const [, specifier] of text.matchAll(
      /(?:from|import)\s*\(?\s*'((?:@toolgate|@modelcontextprotocol)\/[^']+)'/g,
    )) {
      const where = relative(root, file);
      const [scope, pkg, ...rest] = specifier.split('/');
      const base = `${scope}/${pkg}`;
      if (base === `@toolgate/${name}` && !isTest(file))
        problems.push(`${where}: imports its own package by name (${specifier})`);
      if (scope === '@toolgate' && rest.length > 0 && rest.join('/') !== 'testing')
        problems.push(`${where}: reaches into ${base} (${specifier}); import its public entry`);
      if (rest.join('/') === 'testing' && !isTest(file))
        problems.push(`${where}: imports ${specifier} outside a test`);
      if (!permitted.includes(base) && !(isTest(file) && scope === '@toolgate'))
        problems.push(`${where}: ${name} may not import ${base} (ARCHITECTURE.md)`);
    }
  }
}
if (problems.length > 0) {
  console.error(`import rules broken:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(`imports follow ARCHITECTURE.md in ${Object.keys(allowed).length} packages`);
