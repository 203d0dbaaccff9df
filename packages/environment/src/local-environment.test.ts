import { readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalEnvironment } from './local-environment.js';
import { makeWorld, type TempWorld } from './testing/index.js';

let world: TempWorld;
let environment: LocalEnvironment;
beforeEach(() => {
  world = makeWorld();
  environment = new LocalEnvironment({ root: world.root });
});
afterEach(() => world.cleanup());

describe('LocalEnvironment files', () => {
  it('reads lines with offset and limit and counts them all', async () => {
    const file = await environment.readFile('README.md', { offset: 2, limit: 1 });
    expect(file).toEqual({ path: 'README.md', content: 'line two', startLine: 2, endLine: 2, totalLines: 3 });
  });

  it('writes a file, creating its directories, and reports whether it was new', async () => {
    expect(await environment.writeFile('new/dir/x.txt', 'héllo')).toEqual({
      path: 'new/dir/x.txt',
      bytes: 6,
      created: true,
    });
    expect(readFileSync(join(world.root, 'new/dir/x.txt'), 'utf8')).toBe('héllo');
    expect((await environment.writeFile('new/dir/x.txt', 'again')).created).toBe(false);
  });

  it('lists a directory sorted by name, reporting symlinks as symlinks', async () => {
    const listing = await environment.listDirectory();
    expect(listing.path).toBe('.');
    expect(listing.entries.map((entry) => entry.name)).toEqual(
      [...listing.entries.map((e) => e.name)].sort(),
    );
    expect(listing.entries).toContainEqual({ name: 'src', type: 'directory' });
    expect(listing.entries).toContainEqual({ name: 'README.md', type: 'file' });
    expect(listing.entries).toContainEqual({ name: 'link-dir-out', type: 'symlink' });
  });

  it('resolves a symlinked root, so paths inside it are inside', async () => {
    symlinkSync(world.root, join(world.base, 'root-link'));
    const linked = new LocalEnvironment({ root: join(world.base, 'root-link') });
    expect(linked.root).toBe(world.root);
    expect((await linked.readFile('src/a.ts')).totalLines).toBe(2);
  });

  it('follows a symlink that stays inside the root', async () => {
    expect((await environment.readFile('link-file-in')).content).toContain('moss');
    expect((await environment.resolvePath('link-file-in')).path).toBe('src/a.ts');
  });

  it('reports a missing file as NOT_FOUND and a directory as INVALID_PATH', async () => {
    await expect(environment.readFile('nope.txt')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(environment.readFile('src')).rejects.toMatchObject({ code: 'INVALID_PATH' });
  });

  it('refuses a root that does not exist', () => {
    expect(() => new LocalEnvironment({ root: join(world.base, 'missing') })).toThrow(
      /not an existing directory/,
    );
  });
});

describe('LocalEnvironment glob', () => {
  it('finds files by pattern, sorted, without dotfiles unless named and without walking symlinks', async () => {
    expect((await environment.glob('src/**/*.ts')).paths).toEqual(['src/a.ts', 'src/b.ts']);
    expect((await environment.glob('**/*.md')).paths).toEqual(['README.md', 'docs/notes.md']);
  });
});

describe('LocalEnvironment exec', () => {
  it('runs a command line in the root and returns its exit code and output', async () => {
    const result = await environment.exec('pwd; echo err >&2; exit 3');
    expect(result).toMatchObject({
      exitCode: 3,
      timedOut: false,
      stdout: `${world.root}\n`,
      stderr: 'err\n',
    });
  });

  it('passes only allowed variables to commands', async () => {
    process.env.TOOLGATE_TEST_SECRET = 'hunter2';
    try {
      const scrubbed = new LocalEnvironment({ root: world.root, env: { GREETING: 'hi' } });
      const result = await scrubbed.exec('echo "[$TOOLGATE_TEST_SECRET][$GREETING]"');
      expect(result.stdout).toBe('[][hi]\n');
    } finally {
      delete process.env.TOOLGATE_TEST_SECRET;
    }
  });
});
