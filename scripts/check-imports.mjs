#!/usr/bin/env node
// Holds the code to the arrows of ARCHITECTURE.md: every import of a sibling package or of the MCP
// SDK in a package's non-test source must be one the map allows, and must go through one of the
// sibling's entries, never into its files:
//   `@toolgate/x`           the public API (semver-promised, documented), for anyone;
//   `@toolgate/x/internal`  plumbing for the workspace's own packages (the map below), nobody else:
//                           not the demo, the bench, the examples, or a user;
//   `@toolgate/x/testing`   helpers for tests, imported only by tests.
// A package's public and internal entries export disjoint names, so each name has one way in.
//
// Core's public entry holds at most 50 names (`publicLimits`): each is a semver promise.
//
// `--exports` prints how many names each package's entries export; `--graph` prints core's runtime
// import graph and fails on a circle in it. `--root DIR` checks another tree (the script's tests).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const rootAt = process.argv.indexOf('--root');
const root = rootAt === -1 ? new URL('..', import.meta.url).pathname : resolve(process.argv[rootAt + 1]);

/** The most names a package's public entry may export. */
const publicLimits = { core: 50 };

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
// Tests may also import the SDK's packages their package declares as devDependencies (a 2.x client
// against a server, a 1.x client against the modern era), which pnpm's strict layout enforces.
const testOnly = {
  'mcp-client': ['@modelcontextprotocol/server'],
  'mcp-server': ['@modelcontextprotocol/client'],
  gateway: ['@modelcontextprotocol/client'],
};

const allowed = {
  core: [],
  environment: ['@toolgate/core'],
  builtins: ['@toolgate/core', '@toolgate/environment'],
  ledger: ['@toolgate/core'],
  'ledger-postgres': ['@toolgate/core', '@toolgate/ledger'],
  'ledger-cli': ['@toolgate/core', '@toolgate/ledger', '@toolgate/ledger-postgres', '@toolgate/policy-cli'],
  // toolgate policy check|explain, and a policy from layered files for the commands that take one
  'policy-cli': ['@toolgate/core'],
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
    // the SDK's 2.x line, for the 2026-07-28 era (src/modern/)
    '@modelcontextprotocol/server',
    // spans over OTLP, imported only when OTEL_EXPORTER_OTLP_ENDPOINT is set (src/telemetry.ts)
    '@toolgate/otel',
    // toolgate-mcp --policy FILE…: the layered policy files, loaded as `toolgate policy check` loads them
    '@toolgate/policy-cli',
  ],
  // an adapter: core and its framework (a peer), nothing else of ours
  'ai-sdk': ['@toolgate/core'],
  'openai-agents': ['@toolgate/core'],
  // spans and metrics of every call: core's observer, and @opentelemetry/api (a peer)
  otel: ['@toolgate/core'],
  gateway: [
    '@toolgate/core',
    '@toolgate/ledger',
    '@toolgate/ledger-postgres',
    '@toolgate/mcp-client',
    '@toolgate/mcp-server',
    '@modelcontextprotocol/sdk',
    // the SDK's 2.x line, for the 2026-07-28 era (src/modern/)
    '@modelcontextprotocol/server',
    // spans over OTLP, imported only with telemetry: or OTEL_EXPORTER_OTLP_ENDPOINT (src/telemetry/)
    '@toolgate/otel',
    // policy: layers from files and directories, read as `toolgate policy check` reads them
    '@toolgate/policy-cli',
  ],
};

/**
 * The entries a package may have, each a file under its `src/`. Beyond `.`, `./internal` and
 * `./testing`, a public entry of its own for one concept: `@toolgate/core/command-line`,
 * `@toolgate/ledger/trust`.
 */
const entries = {
  '': 'index.ts',
  internal: 'internal.ts',
  testing: 'testing/index.ts',
  'command-line': 'command-line/index.ts',
  trust: 'trust.ts',
};

/** Workspace members outside the map: they may use public entries (and tests `testing`), never `internal`. */
const outsiders = ['apps', 'examples']
  .filter((dir) => existsSync(join(root, dir)))
  .flatMap((dir) => readdirSync(join(root, dir)).map((name) => join(dir, name)));
if (existsSync(join(root, 'bench'))) outsiders.push('bench');

const entryNames = Object.keys(entries);

/** The packages of the map present in the tree checked. */
const present = Object.keys(allowed).filter((name) =>
  existsSync(join(root, 'packages', name, 'package.json')),
);

const isTest = (file) =>
  /\.test\.ts$/.test(file) || /\/(testing-fixtures|test-support)\//.test(file) || file.endsWith('.mjs');

function* sources(dir) {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (entry === 'node_modules' || entry === 'dist') continue;
    if (statSync(path).isDirectory()) yield* sources(path);
    else if (/\.(ts|mjs)$/.test(entry)) yield path;
  }
}

/** Each `@toolgate/…` or MCP SDK specifier a file imports, split into its package and entry. */
function* importsOf(file) {
  const text = readFileSync(file, 'utf8');
  for (const [, specifier] of text.matchAll(
    /(?:from|import)\s*\(?\s*'((?:@toolgate|@modelcontextprotocol)\/[^']+)'/g,
  )) {
    const [scope, name, ...rest] = specifier.split('/');
    yield { specifier, scope, base: `${scope}/${name}`, entry: rest.join('/') };
  }
}

/** The names an entry file exports (`export { a, type B as C } from …`; entries hold nothing else). */
function exportedNames(file) {
  const text = readFileSync(file, 'utf8');
  const names = [];
  for (const [, list] of text.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}/g)) {
    for (const item of list.split(',')) {
      const words = item
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/);
      if (words[0]) names.push(words.at(-1));
    }
  }
  for (const [, name] of text.matchAll(
    /export\s+(?:declare\s+)?(?:async\s+)?(?:function\*?|const|let|class|interface|type|enum)\s+([A-Za-z_$][\w$]*)/g,
  ))
    names.push(name);
  if (/export\s+\*/.test(text)) names.push('*');
  return names;
}

/** Per package, the names each of its entries exports. */
function packageEntries(name) {
  const found = {};
  for (const [entry, file] of Object.entries(entries)) {
    const path = join(root, 'packages', name, 'src', file);
    if (existsSync(path)) found[entry] = exportedNames(path);
  }
  return found;
}

/**
 * A package's `package.json` exports exactly the entries it has: `./internal` (and `./testing`) with
 * the source file beside it, in `exports` and in `publishConfig.exports`, and no entry without it.
 */
function entryMapProblems(name) {
  const manifest = JSON.parse(readFileSync(join(root, 'packages', name, 'package.json'), 'utf8'));
  const found = [];
  for (const [entry, file] of Object.entries(entries)) {
    if (entry === '') continue;
    const has = existsSync(join(root, 'packages', name, 'src', file));
    const built = `./dist/${file.replace(/\.ts$/, '.js')}`;
    const source = manifest.exports?.[`./${entry}`]?.['@toolgate/source'];
    const published = manifest.publishConfig?.exports?.[`./${entry}`]?.default;
    if (has && (source !== `./src/${file}` || published !== built))
      found.push(
        `packages/${name}/package.json: src/${file} exists, so "exports" and "publishConfig.exports" need "./${entry}" ` +
          `({ "@toolgate/source": "./src/${file}", … } and { "default": "${built}", … })`,
      );
    if (!has && (source !== undefined || published !== undefined))
      found.push(`packages/${name}/package.json: exports "./${entry}", but there is no src/${file}`);
  }
  return found;
}

if (process.argv.includes('--exports')) {
  console.log('package                    public  internal  testing  other entries');
  for (const name of present) {
    const found = packageEntries(name);
    const count = (entry) => String(found[entry]?.length ?? '-');
    const others = Object.keys(found)
      .filter((entry) => !['', 'internal', 'testing'].includes(entry))
      .map((entry) => `./${entry} ${found[entry].length}`);
    console.log(
      `${`@toolgate/${name}`.padEnd(26)} ${count('').padStart(6)}  ${count('internal').padStart(8)}  ${count('testing').padStart(7)}  ${others.join(', ')}`.trimEnd(),
    );
  }
  process.exit(0);
}

if (process.argv.includes('--graph')) process.exit(printCoreGraph());

const problems = [];
for (const name of present) {
  const permitted = allowed[name];
  const found = packageEntries(name);
  const limit = publicLimits[name];
  if (limit !== undefined && (found['']?.length ?? 0) > limit)
    problems.push(
      `packages/${name}/src/index.ts: the public entry exports ${found[''].length} names, more than its ${limit} ` +
        '(each is a semver promise); move what only siblings use to src/internal.ts, or a concept to an entry of its own',
    );
  if (found['']?.includes('*') || found.internal?.includes('*'))
    problems.push(`packages/${name}: an entry re-exports with \`export *\`; name what it exports`);
  for (const entry of entryNames.filter((entry) => entry !== '' && entry !== 'testing')) {
    const both = (found[entry] ?? []).filter((exported) => found['']?.includes(exported));
    if (both.length > 0)
      problems.push(
        `packages/${name}/src/${entries[entry]}: exports ${both.join(', ')}, which the public entry exports too; one way in a name`,
      );
  }
  problems.push(...entryMapProblems(name));
  for (const file of sources(join(root, 'packages', name, 'src'))) {
    const where = relative(root, file);
    for (const { specifier, scope, base, entry } of importsOf(file)) {
      if (base === `@toolgate/${name}` && !isTest(file))
        problems.push(`${where}: imports its own package by name (${specifier})`);
      if (scope === '@toolgate' && !entryNames.includes(entry))
        problems.push(
          `${where}: reaches into ${base} (${specifier}); import one of its entries (${base}, /internal, /testing)`,
        );
      if (scope === '@toolgate' && entry === 'testing' && !isTest(file))
        problems.push(`${where}: imports ${specifier} outside a test`);
      const testPermitted = isTest(file) && (scope === '@toolgate' || testOnly[name]?.includes(base));
      if (!permitted.includes(base) && !testPermitted)
        problems.push(`${where}: ${name} may not import ${base} (ARCHITECTURE.md)`);
    }
  }
}
for (const member of outsiders) {
  for (const file of sources(join(root, member))) {
    const where = relative(root, file);
    for (const { specifier, scope, entry } of importsOf(file)) {
      if (scope !== '@toolgate') continue;
      if (entry === 'internal')
        problems.push(
          `${where}: imports ${specifier}, which is for toolgate's own packages; use the public entry`,
        );
      else if (!entryNames.includes(entry)) problems.push(`${where}: reaches into a package (${specifier})`);
    }
  }
}
if (problems.length > 0) {
  console.error(`import rules broken:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(
  `imports follow ARCHITECTURE.md in ${present.length} packages and ${outsiders.length} other workspace members`,
);
