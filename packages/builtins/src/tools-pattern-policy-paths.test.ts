import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type Policy, type PolicyRequest, type PolicyRule, RulePolicy } from '@toolgate/core';
import { type Environment, LocalEnvironment, MemoryEnvironment } from '@toolgate/environment';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinAgent, outputOf } from './testing-fixtures/agent.js';

// A search (and a glob) asks policy about each file it meets only when a path could change the
// verdict: when no rule on the tool or read_file has paths, every file is judged as the call itself
// was, so the per-file walk before a search (every file of the tree, twice judged) and the
// resolution and judging of each path a glob found are skipped.
const files: Record<string, string> = {
  '.env': 'API_KEY=sk-live-dotenv\n',
  'src/app.txt': 'API_KEY=placeholder\n',
  'notes/plan.txt': 'API_KEY=asked\n',
};

let root: string;
beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'toolgate-pattern-paths-')));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const environments: [string, () => Environment][] = [
  ['LocalEnvironment, JavaScript engine', () => new LocalEnvironment({ root, search: 'javascript' })],
  ['MemoryEnvironment', () => new MemoryEnvironment({ files })],
];
if (spawnSync('rg', ['--version']).status === 0 || process.env.CI) {
  environments.push(['LocalEnvironment, ripgrep', () => new LocalEnvironment({ root, search: 'ripgrep' })]);
}

/**
 * `policy`, keeping the paths it was asked about one at a time (the call's own subject, the pattern's
 * base, among them); with `tells: false` it cannot say whether paths matter.
 */
function counting(policy: RulePolicy, tells: boolean): Policy & { pathsAsked: string[] } {
  const counted = {
    pathsAsked: [] as string[],
    decide(request: PolicyRequest) {
      const paths = request.subject?.paths ?? [];
      if (paths.length === 1) counted.pathsAsked.push(paths[0]!);
      return policy.decide(request);
    },
  };
  return tells
    ? Object.assign(counted, { judgesPaths: (tool: string) => policy.judgesPaths(tool) })
    : counted;
}

// Rules with paths, but on other tools; and rules on search_files and read_file without paths.
const elsewhere: PolicyRule[] = [
  { tools: ['write_file'], paths: ['src/**'], decision: 'deny' },
  { tools: ['shell'], commands: ['rm *'], decision: 'deny' },
  { tools: ['read_file', 'search_files'], decision: 'allow' },
];

describe.each(environments)('search_files over %s', (_name, make) => {
  it('asks about no file when no rule on it or read_file has paths, and finds what a per-file walk finds', async () => {
    const rules = new RulePolicy({ default: 'deny', rules: elsewhere });
    const told = counting(rules, true);
    const walked = counting(rules, false);
    const skipping = outputOf(
      await builtinAgent(make(), told).callTool('search_files', { pattern: 'API_KEY' }),
    );
    const walking = outputOf(
      await builtinAgent(make(), walked).callTool('search_files', { pattern: 'API_KEY' }),
    );
    // only the call itself was judged, on the search's base
    expect(told.pathsAsked).toEqual(['.']);
    // the policy that cannot tell is asked about every file, and its answers change nothing here
    expect(new Set(walked.pathsAsked)).toEqual(new Set(['.', ...Object.keys(files)]));
    expect(skipping).toEqual(walking);
    expect(skipping.matches).toHaveLength(3);
  });

  it('still asks about each file, and withholds, when a rule on read_file has paths', async () => {
    const rules = new RulePolicy({
      default: 'deny',
      rules: [...elsewhere, { tools: ['read_file'], paths: ['.env'], decision: 'deny' }],
    });
    const told = counting(rules, true);
    const output = outputOf(
      await builtinAgent(make(), told).callTool('search_files', { pattern: 'API_KEY' }),
    );
    expect(told.pathsAsked).toContain('.env');
    expect(JSON.stringify(output)).not.toContain('sk-live');
    expect(output.withheldByPolicy).toBe(1);
  });

  it('still asks about each file when a rule for every tool has paths', async () => {
    const rules = new RulePolicy({
      default: 'allow',
      rules: [{ paths: ['.env'], decision: 'deny' }],
    });
    const told = counting(rules, true);
    const output = outputOf(
      await builtinAgent(make(), told).callTool('search_files', { pattern: 'API_KEY' }),
    );
    expect(told.pathsAsked).toContain('.env');
    expect(output.withheldByPolicy).toBe(1);
  });
});

describe.each(environments)('glob over %s', (_name, make) => {
  it('asks about no path when no rule on it or read_file has paths, and lists what judging each lists', async () => {
    const rules = new RulePolicy({
      default: 'deny',
      rules: [...elsewhere, { tools: ['glob'], decision: 'allow' }],
    });
    const told = counting(rules, true);
    const walked = counting(rules, false);
    const skipping = outputOf(await builtinAgent(make(), told).callTool('glob', { pattern: '**/*.txt' }));
    const walking = outputOf(await builtinAgent(make(), walked).callTool('glob', { pattern: '**/*.txt' }));
    expect(told.pathsAsked).toEqual(['.']);
    expect(new Set(walked.pathsAsked)).toEqual(new Set(['.', 'notes/plan.txt', 'src/app.txt']));
    expect(skipping).toEqual(walking);
    expect(skipping.paths).toEqual(['notes/plan.txt', 'src/app.txt']);
  });

  it('still withholds when a rule on read_file has paths', async () => {
    const rules = new RulePolicy({
      default: 'allow',
      rules: [{ tools: ['read_file'], paths: ['notes/**'], decision: 'deny' }],
    });
    const output = outputOf(await builtinAgent(make(), rules).callTool('glob', { pattern: '**/*.txt' }));
    expect(output.paths).toEqual(['src/app.txt']);
    expect(output.withheldByPolicy).toBe(1);
  });
});
