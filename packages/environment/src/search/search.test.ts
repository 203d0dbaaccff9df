import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchOptions } from '../environment.js';
import { LocalEnvironment } from '../local-environment.js';
import { MemoryEnvironment } from '../memory/memory-environment.js';

let root: string;
const files: Record<string, string | Buffer> = {
  'a.txt': 'foo bar\nnothing\nfoo\n',
  'crlf.txt': 'x foo\r\nfoo\r\nlast foo',
  'unicode.md': 'héllo wörld\nnaïve café foo\n\u00a0foo\nfoo\tbar  baz\n',
  '.hidden/secret.txt': 'hidden foo\n',
  '.git/config': 'foo in git\n',
  'src/deep/z.ts': 'const foo1 = 1;\nconst foo_bar = 2;\nfoo-bar\n',
  'src/a-b.ts': 'foo\n',
  'src/a/b.ts': 'foo\n',
  'binary-early.bin': Buffer.from('foo\n\0foo\n'),
  'binary-late.bin': Buffer.concat([
    Buffer.from('foo first\n'),
    Buffer.alloc(200_000, 120),
    Buffer.from('\n\0foo\n'),
  ]),
  'long.txt': `${'foo'.repeat(2000)}\n`,
};

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'toolgate-search-')));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), content);
  }
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const ripgrepPath = process.env.RIPGREP_PATH ?? 'rg';
const ripgrep = () => new LocalEnvironment({ root, search: 'ripgrep', ripgrepPath });
const javascript = () => new LocalEnvironment({ root, search: 'javascript' });

// ripgrep is optional for a user (the JavaScript engine serves without it), so on a machine without
// it the comparisons with it are skipped and the shared rules run on JavaScript alone. CI installs it
// and must never skip them.
const hasRipgrep = spawnSync(ripgrepPath, ['--version']).status === 0;
if (!hasRipgrep && process.env.CI) {
  throw new Error(`ripgrep (${ripgrepPath}) is not installed; CI must install it (apt-get install ripgrep)`);
}
const engines: [string, () => LocalEnvironment][] = hasRipgrep
  ? [
      ['ripgrep', ripgrep],
      ['javascript', javascript],
    ]
  : [['javascript', javascript]];

const cases: [string, SearchOptions?][] = [
  ['foo'],
  ['^foo$'],
  ['\\bfoo\\b'],
  ['foo\\w'],
  ['foo\\d'],
  ['\\sfoo'],
  ['\\s{2}'],
  ['[\\w-]+bar'],
  ['caf.'],
  ['w.rld'],
  ['\\p{L}ïve'],
  ['foo$'],
  ['foo', { glob: 'src/**/*.ts' }],
  ['foo', { glob: '*.txt' }],
  ['foo', { glob: '**/*.{ts,md}' }],
  ['foo', { maxMatches: 3 }],
  ['foo', { maxLineChars: 20 }],
  ['(?<=x )foo'],
  ['(foo)\\1'],
];

describe.skipIf(!hasRipgrep)('content search with ripgrep (skipped where it is not installed)', () => {
  it.each(cases)(
    'gives the same results with ripgrep and with JavaScript for /%s/ %j',
    async (pattern, options) => {
      const fast = await ripgrep().search(pattern, options);
      const fallback = await javascript().search(pattern, options);
      expect(fallback.engine).toBe('javascript');
      expect(fast.matches.map((m) => `${m.path}:${m.line}`)).toEqual(
        fallback.matches.map((m) => `${m.path}:${m.line}`),
      );
      expect({ ...fast, engine: 'same' }).toEqual({ ...fallback, engine: 'same' });
    },
  );

  it('uses ripgrep for portable patterns and JavaScript for lookbehind', async () => {
    expect((await ripgrep().search('foo')).engine).toBe('ripgrep');
    expect((await ripgrep().search('(?<=x )foo')).engine).toBe('javascript');
  });
});

describe.each(engines)('content search (%s)', (_engine, search) => {
  it('returns the first matches by path then line, and counts all of them', async () => {
    const result = await search().search('foo', { maxMatches: 4 });
    expect(result.matches.map((match) => `${match.path}:${match.line}`)).toEqual([
      '.hidden/secret.txt:1',
      'a.txt:1',
      'a.txt:3',
      'crlf.txt:1',
    ]);
    expect(result.totalMatches).toBe(15);
    const nested = await search().search('foo', { glob: 'src/**' });
    expect(nested.matches.map((match) => match.path)).toEqual([
      'src/a/b.ts',
      'src/a-b.ts',
      'src/deep/z.ts',
      'src/deep/z.ts',
      'src/deep/z.ts',
    ]);
  });

  it("skips binary files and .git, searches hidden files, and drops a line's carriage return", async () => {
    const paths = new Set((await search().search('foo')).matches.map((match) => match.path));
    expect(paths.has('binary-early.bin')).toBe(false);
    expect(paths.has('binary-late.bin')).toBe(false);
    expect(paths.has('.git/config')).toBe(false);
    expect(paths.has('.hidden/secret.txt')).toBe(true);
    const [crlf] = (await search().search('x foo', { glob: 'crlf.txt' })).matches;
    expect(crlf?.text).toBe('x foo');
  });

  it('caps long lines with a marker saying how much was left out', async () => {
    const [match] = (await search().search('foo', { glob: 'long.txt' })).matches;
    expect(match?.text).toBe(`${'foo'.repeat(333)}f\n[… truncated: 5000 more characters not shown]`);
  });

  it('refuses an invalid regular expression with a clear message', async () => {
    await expect(search().search('(unclosed')).rejects.toThrow(/not a valid regular expression/);
  });
});

describe('content search, whichever engine', () => {
  it('falls back to JavaScript when ripgrep is missing, unless ripgrep was required', async () => {
    const missing = join(root, 'no-rg');
    const auto = new LocalEnvironment({ root, ripgrepPath: missing });
    expect((await auto.search('foo')).engine).toBe('javascript');
    const required = new LocalEnvironment({ root, ripgrepPath: missing, search: 'ripgrep' });
    await expect(required.search('foo')).rejects.toMatchObject({ code: 'COMMAND_FAILED' });
  });

  it('searches a MemoryEnvironment with the same rules', async () => {
    const text = Object.fromEntries(
      Object.entries(files).map(([path, content]) => [
        path,
        typeof content === 'string' ? content : content.toString('latin1'),
      ]),
    );
    const memory = new MemoryEnvironment({ files: text });
    const fromMemory = await memory.search('foo', { glob: 'src/**' });
    const fromDisk = await javascript().search('foo', { glob: 'src/**' });
    expect(fromMemory).toEqual(fromDisk);
  });
});
