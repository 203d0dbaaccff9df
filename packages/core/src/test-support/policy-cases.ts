// Random rules, calls and resources for the policy index's differential test: patterns chosen
// where globs, paths, hosts and commands have edge cases (negation, braces, `./`, `..`, empty
// segments, NUL tokens, upper case), so a lookup that leaves out a rule a scan would find shows.
import type { Decision, PolicyRule } from '../policy.js';
import type { Resource } from '../policy-rules.js';
import type { ArgumentPredicate } from '../policy-where.js';

/** A seeded generator, so a failure names a case that can be run again. */
export function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)]!;
  const some = <T>(values: readonly T[], most: number): T[] =>
    Array.from({ length: 1 + Math.floor(next() * most) }, () => pick(values));
  return { next, pick, some };
}

/** Tool names a call may have, plain and odd. */
export const tools = [
  'read_file',
  'write_file',
  'shell',
  'fetch',
  'mcp__fs__read',
  'mcp__fs__write',
  'a.b',
  './x',
  'x/y',
  'READ_FILE',
  'sh ll',
];
const toolGlobs = [
  ...tools,
  'mcp__*',
  'mcp__fs__*',
  '*',
  '*_file',
  'read_*',
  '{read,write}_file',
  '!shell',
  'sh?ll',
  '.x*',
  'x/*',
  '**',
  'a.*',
  '[rs]*',
  'mcp__fs__{read,write}',
  '@(shell|fetch)',
];
const paths = [
  'src/a.ts',
  'src',
  'src/',
  'src/lib/b.ts',
  './src/a.ts',
  'src//a.ts',
  '/etc/passwd',
  'etc/passwd',
  '.env',
  'app/.env',
  'src/../etc',
  'a b/c.ts',
  'SRC/a.ts',
  'packages/p1/src/index.ts',
  '',
  'src\\a.ts',
  '~/x',
  '/',
  'src/.',
  '..',
];
const pathGlobs = [
  'src/**',
  'src/*',
  'src',
  'src/a.ts',
  '**/.env',
  '.env',
  '/etc/**',
  './src/**',
  'src/**/*.ts',
  '{src,lib}/**',
  '!src/**',
  'packages/*/src/**',
  'src/lib/**',
  'a b/**',
  'SRC/**',
  '**',
  'src/',
  '~/**',
  'src//a.ts',
  '/**',
  'src/./a.ts',
  'src\\a.ts',
  'src/@(a|b).ts',
  'src/+(lib)/**',
  '..',
];
const hosts = [
  'api.example.com',
  'example.com',
  'Example.COM',
  'a.b.example.com',
  'evil.com',
  'example.com.',
  '127.0.0.1',
  '[::1]',
  'x/y.com',
  'api.example.com:443',
  '',
];
const hostGlobs = [
  'api.example.com',
  '*.example.com',
  'example.com',
  '**.example.com',
  '*',
  '*.com',
  '{api,www}.example.com',
  'EXAMPLE.com',
  '127.0.0.*',
  'example.*',
  '*example.com',
  'x/*',
];
const argvs: string[][] = [
  ['npm', 'test'],
  ['npm', 'test', '--watch'],
  ['git', 'status'],
  ['/bin/rm', '-rf', 'x'],
  ['./rm', '-rf'],
  ['rm', '-rf', '/'],
  ['rm'],
  ['\u0000glob *.ts'],
  ['npm', '\u0000glob x'],
  ['\u0000code:eval'],
  ['sh', '-c', '\u0000code:x'],
  [''],
  ['FOO=1', 'npm', 'test'],
  ['/usr/bin/npm', 'test'],
  [],
  ['rm', '\u0000glob *', '/'],
];
const commandGlobs = [
  'npm test',
  'npm test *',
  'git status *',
  'rm -rf *',
  'rm *',
  '*',
  '/bin/rm *',
  'npm',
  'rm -rf /',
  ' npm  test ',
  'rm * /',
];
const decisions: Decision[] = ['allow', 'ask', 'deny'];
/** Agent paths a call may come from. */
export const agents = ['lead', 'lead/critic', 'lead/critic/sub', 'other', 'lead-2'];
const agentGlobs = ['lead', 'lead/*', 'lead/**', '*', '**', 'other', 'lead*'];
/** Gateway clients a call may come through (or none). */
export const clients = [undefined, 'desktop', 'ci', 'ci-nightly'];
const clientGlobs = ['desktop', 'ci*', '*'];
const wherePredicates: ArgumentPredicate[] = [
  'POST',
  'P*',
  { regex: '^(GET|HEAD)$' },
  { glob: 'GET', missing: 'matches' },
  { regex: 'T', missing: 'matches' },
];
/** Values of a `method` argument, absent and of another type included. */
export const methods = [undefined, 'GET', 'POST', 'PUT', 7];

/** A random rule: tools, who-conditions, where, and one or two kinds of resource patterns. */
export function ruleFrom(generate: ReturnType<typeof random>): PolicyRule {
  const rule: { -readonly [K in keyof PolicyRule]: PolicyRule[K] } = { decision: generate.pick(decisions) };
  if (generate.next() < 0.7) rule.tools = generate.some(toolGlobs, 3);
  if (generate.next() < 0.2) rule.agents = generate.some(agentGlobs, 2);
  if (generate.next() < 0.15) rule.clients = generate.some(clientGlobs, 2);
  if (generate.next() < 0.2) {
    const predicate = generate.pick(wherePredicates);
    if (rule.decision === 'deny' || typeof predicate === 'string' || predicate.missing === undefined)
      rule.where = { '/method': predicate };
  }
  const kind = generate.next();
  if (kind < 0.3) rule.paths = generate.some(pathGlobs, 3);
  else if (kind < 0.5) rule.commands = generate.some(commandGlobs, 3);
  else if (kind < 0.65) rule.hosts = generate.some(hostGlobs, 2);
  else if (kind < 0.72) {
    rule.paths = generate.some(pathGlobs, 2);
    rule.hosts = generate.some(hostGlobs, 2);
  }
  return rule;
}

/** A random resource, unknown and none included. */
export function resourceFrom(generate: ReturnType<typeof random>): Resource {
  const kind = generate.next();
  if (kind < 0.1) return { kind: 'unknown' };
  if (kind < 0.2) return { kind: 'none' };
  if (kind < 0.5) return { kind: 'path', value: generate.pick(paths) };
  if (kind < 0.8) return { kind: 'command', value: generate.pick(argvs) };
  return { kind: 'host', value: generate.pick(hosts) };
}
