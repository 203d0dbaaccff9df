import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Environment } from '@toolgate/environment';
import { LocalEnvironment, MemoryEnvironment } from '@toolgate/environment';
import { makeWorld, type TempWorld } from '@toolgate/environment/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinAgent, codeOf, outputOf } from './testing-fixtures/agent.js';

let world: TempWorld;
beforeAll(() => {
  world = makeWorld();
});
afterAll(() => world.cleanup());

const environments: [string, () => Environment][] = [
  ['LocalEnvironment', () => new LocalEnvironment({ root: world.root })],
  [
    'MemoryEnvironment',
    () =>
      new MemoryEnvironment({ root: '/srv/ws', files: { 'README.md': '# moss\n', src: { 'a.ts': 'moss' } } }),
  ],
];

describe.each(environments)('file tools over %s refuse every escape', (_name, make) => {
  const call = (tool: string, parameters: object) => builtinAgent(make()).callTool(tool, parameters);

  it.each([
    ['../outside/secret.txt'],
    ['/etc/passwd'],
    ['src/../../outside/secret.txt'],
    ['../ws_evil/secret.txt'],
  ])('read_file %s → PATH_OUTSIDE_ROOT', async (path) => {
    expect(codeOf(await call('read_file', { path }))).toBe('PATH_OUTSIDE_ROOT');
  });

  it('refuses the sibling-prefix bypass (root_evil)', async () => {
    const environment = make();
    const path = `${environment.root}_evil/secret.txt`;
    expect(codeOf(await builtinAgent(environment).callTool('read_file', { path }))).toBe('PATH_OUTSIDE_ROOT');
  });

  it('refuses NUL bytes', async () => {
    expect(codeOf(await call('read_file', { path: 'README.md\u0000' }))).toBe('INVALID_PATH');
    expect(codeOf(await call('write_file', { path: 'a\u0000b', content: 'x' }))).toBe('INVALID_PATH');
  });

  it('does not URL-decode %2e%2e%2f', async () => {
    expect(codeOf(await call('read_file', { path: '%2e%2e%2foutside%2fsecret.txt' }))).toBe('NOT_FOUND');
  });

  it('refuses writes and listings outside', async () => {
    expect(codeOf(await call('write_file', { path: '../pwned.txt', content: 'x' }))).toBe(
      'PATH_OUTSIDE_ROOT',
    );
    expect(codeOf(await call('list_dir', { path: '../' }))).toBe('PATH_OUTSIDE_ROOT');
    expect(existsSync(join(world.base, 'pwned.txt'))).toBe(false);
  });

  it.each([['../**'], ['/etc/*'], ['{..,src}/*']])(
    'refuses glob and search patterns reaching out: %s',
    async (pattern) => {
      expect(codeOf(await call('glob', { pattern }))).toBe('PATH_OUTSIDE_ROOT');
      expect(codeOf(await call('search_files', { pattern: 'secret', glob: pattern }))).toBe(
        'PATH_OUTSIDE_ROOT',
      );
    },
  );
});

describe('file tools over LocalEnvironment refuse symlink escapes', () => {
  const call = (tool: string, parameters: object) =>
    builtinAgent(new LocalEnvironment({ root: world.root })).callTool(tool, parameters);

  it('a symlinked file pointing outside', async () => {
    expect(codeOf(await call('read_file', { path: 'link-file-out' }))).toBe('PATH_OUTSIDE_ROOT');
  });

  it('a symlinked parent directory pointing outside', async () => {
    expect(codeOf(await call('read_file', { path: 'link-dir-out/secret.txt' }))).toBe('PATH_OUTSIDE_ROOT');
    expect(codeOf(await call('list_dir', { path: 'link-dir-out' }))).toBe('PATH_OUTSIDE_ROOT');
  });

  it('a dangling symlink written through', async () => {
    expect(codeOf(await call('write_file', { path: 'dangling-out', content: 'pwned' }))).toBe(
      'PATH_OUTSIDE_ROOT',
    );
    expect(existsSync(join(world.outside, 'not-yet.txt'))).toBe(false);
  });

  it('writing through a symlink to an outside target', async () => {
    expect(codeOf(await call('write_file', { path: 'link-file-out', content: 'pwned' }))).toBe(
      'PATH_OUTSIDE_ROOT',
    );
    expect(codeOf(await call('write_file', { path: 'link-dir-out/new.txt', content: 'pwned' }))).toBe(
      'PATH_OUTSIDE_ROOT',
    );
    expect(readFileSync(join(world.outside, 'secret.txt'), 'utf8')).toBe('outside secret\n');
    expect(existsSync(join(world.outside, 'new.txt'))).toBe(false);
  });

  it('a glob reaching out through a symlinked directory', async () => {
    expect(codeOf(await call('glob', { pattern: 'link-dir-out/*' }))).toBe('PATH_OUTSIDE_ROOT');
  });

  it('symlink loops: refused when named, not walked by glob or search', async () => {
    expect(codeOf(await call('read_file', { path: 'loop-a' }))).toBe('INVALID_PATH');
    const { paths } = outputOf(await call('glob', { pattern: '**/*' }));
    expect(paths).toContain('src/a.ts');
    expect(paths.filter((path: string) => path.startsWith('src/self/') || path.includes('secret'))).toEqual(
      [],
    );
    const found = outputOf(await call('search_files', { pattern: 'secret' }));
    expect(found.totalMatches).toBe(0);
  });
});
