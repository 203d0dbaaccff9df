import { spawnSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type PolicyRule, RulePolicy } from '@toolgate/core';
import { type Environment, LocalEnvironment, MemoryEnvironment } from '@toolgate/environment';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinAgent, outputOf } from './testing-fixtures/agent.js';

// The world: a key in `.env` and in `secrets/`, beside ordinary files. Policy denies
// read_file of `.env` and `secrets/**`; the pattern tools must not hand those files over either.
const files: Record<string, string> = {
  '.env': 'API_KEY=sk-live-dotenv\n',
  'secrets/db.txt': 'API_KEY=sk-live-db\n',
  'src/app.txt': 'API_KEY=placeholder\n',
  'notes/plan.txt': 'API_KEY=asked\n',
  'README.md': 'no keys here\n',
};
const readFileDenied: PolicyRule = {
  tools: ['read_file'],
  paths: ['.env', 'secrets/**'],
  decision: 'deny',
  reason: 'secrets stay secret',
};

let root: string;
beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'toolgate-pattern-policy-')));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  symlinkSync('secrets', join(root, 'hidden'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const ripgrepPath = process.env.RIPGREP_PATH ?? 'rg';
const hasRipgrep = spawnSync(ripgrepPath, ['--version']).status === 0;
if (!hasRipgrep && process.env.CI) throw new Error(`ripgrep (${ripgrepPath}) must be installed in CI`);

const environments: [string, () => Environment][] = [
  ['LocalEnvironment, JavaScript engine', () => new LocalEnvironment({ root, search: 'javascript' })],
  ['MemoryEnvironment', () => new MemoryEnvironment({ files })],
];
if (hasRipgrep) {
  environments.push([
    'LocalEnvironment, ripgrep',
    () => new LocalEnvironment({ root, search: 'ripgrep', ripgrepPath }),
  ]);
}

describe.each(environments)(
  'pattern tools over %s never hand over a path read_file is denied',
  (_name, make) => {
    const agent = () => builtinAgent(make(), new RulePolicy({ default: 'allow', rules: [readFileDenied] }));

    it('search_files returns no line of a denied file and says how many files it withheld', async () => {
      const output = outputOf(await agent().callTool('search_files', { pattern: 'API_KEY' }));
      expect(output.matches).toEqual([
        'notes/plan.txt:1: API_KEY=asked',
        'src/app.txt:1: API_KEY=placeholder',
      ]);
      expect(JSON.stringify(output)).not.toContain('sk-live');
      expect(output.withheldByPolicy).toBe(2);
    });

    it('search_files with a glob into the denied directory finds nothing there', async () => {
      const output = outputOf(await agent().callTool('search_files', { pattern: 'API', glob: 'secrets/**' }));
      expect(output.matches).toEqual([]);
      expect(output.withheldByPolicy).toBe(1);
    });

    it('glob lists no denied path and says how many it withheld', async () => {
      const output = outputOf(await agent().callTool('glob', { pattern: '**/*.txt' }));
      expect(output.paths).toEqual(['notes/plan.txt', 'src/app.txt']);
      expect(output.withheldByPolicy).toBe(1);
      const dot = outputOf(await agent().callTool('glob', { pattern: '.env' }));
      expect(dot.paths).toEqual([]);
      expect(dot.withheldByPolicy).toBe(1);
    });

    it('list_dir lists no denied entry and says how many it withheld', async () => {
      const top = outputOf(await agent().callTool('list_dir', {}));
      const names = top.entries.map((entry: { name: string }) => entry.name);
      expect(names).not.toContain('.env');
      expect(names).not.toContain('secrets');
      expect(names).toEqual(expect.arrayContaining(['README.md', 'notes', 'src']));
      expect(top.withheldByPolicy).toBe(2);
      const inside = outputOf(await agent().callTool('list_dir', { path: 'secrets' }));
      expect(inside.entries).toEqual([]);
      expect(inside.withheldByPolicy).toBe(1);
    });

    it('says nothing was withheld when policy withholds nothing', async () => {
      const output = outputOf(await agent().callTool('search_files', { pattern: 'no keys' }));
      expect(output.matches).toEqual(['README.md:1: no keys here']);
      expect(output.withheldByPolicy).toBe(2);
      const open = builtinAgent(make(), new RulePolicy({ default: 'allow', rules: [] }));
      const all = outputOf(await open.callTool('search_files', { pattern: 'API_KEY' }));
      expect(all.matches).toHaveLength(4);
      expect(all.withheldByPolicy).toBeUndefined();
    });
  },
);

describe.each(environments)('pattern tools over %s judge each path as the call itself', (_name, make) => {
  it('withholds what a rule on the pattern tool itself denies, and what it would ask for, asking nobody', async () => {
    let asked = 0;
    const policy = new RulePolicy({
      default: 'allow',
      rules: [
        { paths: ['.env', 'secrets/**'], decision: 'deny' },
        { paths: ['notes/**'], decision: 'ask' },
      ],
    });
    const approver = () => {
      asked++;
      return true;
    };
    const agent = builtinAgent(make(), policy, undefined, { approver });
    const output = outputOf(await agent.callTool('search_files', { pattern: 'API_KEY' }));
    expect(output.matches).toEqual(['src/app.txt:1: API_KEY=placeholder']);
    expect(output.withheldByPolicy).toBe(3);
    const listed = outputOf(await agent.callTool('glob', { pattern: '**/*.txt' }));
    expect(listed.paths).toEqual(['src/app.txt']);
    expect(asked).toBe(0);
  });

  it('keeps every path of a call approved under a tool-wide ask', async () => {
    let asked = 0;
    const policy = new RulePolicy({ default: 'deny', rules: [{ tools: ['search_files'], decision: 'ask' }] });
    const approver = () => {
      asked++;
      return true;
    };
    const agent = builtinAgent(make(), policy, undefined, { approver });
    const output = outputOf(await agent.callTool('search_files', { pattern: 'API_KEY' }));
    expect(output.matches).toHaveLength(4);
    expect(output.withheldByPolicy).toBeUndefined();
    expect(asked).toBe(1);
  });
});

describe('glob judges the resolved path, not the name it was reached by', () => {
  it('withholds secrets/db.txt reached through the link hidden -> secrets', async () => {
    const agent = builtinAgent(
      new LocalEnvironment({ root }),
      new RulePolicy({ default: 'allow', rules: [readFileDenied] }),
    );
    const output = outputOf(await agent.callTool('glob', { pattern: 'hidden/*.txt' }));
    expect(output.paths).toEqual([]);
    expect(output.withheldByPolicy).toBe(1);
  });
});

describe.skipIf(!hasRipgrep)('search_files tells ripgrep to skip each withheld file', () => {
  it('passes an anchored exclusion per withheld file, so ripgrep does not open them', async () => {
    const bin = realpathSync(mkdtempSync(join(tmpdir(), 'toolgate-rg-log-')));
    try {
      const log = join(bin, 'argv.log');
      const wrapper = join(bin, 'rg');
      writeFileSync(wrapper, `#!/bin/sh\nprintf '%s\\n' "$@" >> '${log}'\nexec ${ripgrepPath} "$@"\n`, {
        mode: 0o755,
      });
      const environment = new LocalEnvironment({ root, search: 'ripgrep', ripgrepPath: wrapper });
      const agent = builtinAgent(environment, new RulePolicy({ default: 'allow', rules: [readFileDenied] }));
      const output = outputOf(await agent.callTool('search_files', { pattern: 'API_KEY' }));
      expect(output.withheldByPolicy).toBe(2);
      const argv = readFileSync(log, 'utf8').split('\n');
      expect(argv).toEqual(expect.arrayContaining(['--glob=!/.env', '--glob=!/secrets/db.txt']));
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });
});
