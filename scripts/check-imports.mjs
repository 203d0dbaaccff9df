#!/usr/bin/env node
// Holds the code to the arrows of ARCHITECTURE.md: every import of a sibling package or of the MCP
// SDK in a package's non-test source must be one the map allows, and must go through the sibling's
// public entry (`@toolgate/x` or `@toolgate/x/testing`), never into its files.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

/**
 * `--graph`: prints core's runtime import graph (type-only imports left out: they vanish at run
 * time) as `file -> imports`, then every circle in it; exits 1 when there is one.
 */
function printCoreGraph() {
  const base = join(root, 'packages', 'core', 'src');
  const files = [...sources(base)].filter((file) => file.endsWith('.ts') && !isTest(file));
  const graph = new Map();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const targets = new Set();
    for (const match of text.matchAll(/^(?:import|export)\s+(type\s+)?([^;]*?)\s+from\s+'(\.[^']+)'/gms)) {
      const [, typeOnly, clause, specifier] = match;
      if (typeOnly) continue;
      // `import { type A, type B } from` is type-only too
      const names = /^\{([\s\S]*)\}$/.exec(clause.trim());
      if (names?.[1].split(',').every((name) => name.trim() === '' || /^type\s/.test(name.trim()))) continue;
      targets.add(relative(base, resolve(dirname(file), specifier.replace(/\.js$/, '.ts'))));
    }
    graph.set(relative(base, file), [...targets].sort());
  }
  const names = [...graph.keys()].sort();
  for (const name of names) console.log(`${name} -> ${graph.get(name).join(', ') || '(none)'}`);
  const cycles = [];
  const state = new Map();
  const stack = [];
  const visit = (name) => {
    state.set(name, 'open');
    stack.push(name);
    for (const next of graph.get(name) ?? []) {
      if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(name, 'done');
  };
  for (const name of names) if (!state.has(name)) visit(name);
  if (cycles.length === 0) {
    console.log(`core: ${names.length} files, no circle of runtime imports`);
    return 0;
  }
  for (const cycle of cycles) console.error(`circle: ${cycle.join(' -> ')}`);
  console.error(`core: ${names.length} files, ${cycles.length} circle(s) of runtime imports`);
  return 1;
}

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

if (process.argv.includes('--graph')) process.exit(printCoreGraph());

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
      if (scope === '@toolgate' && rest.length > 0 && !['testing', 'internal'].includes(rest.join('/')))
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
