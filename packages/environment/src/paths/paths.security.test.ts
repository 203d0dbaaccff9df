import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ToolgateError } from '@toolgate/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Environment } from '../environment.js';
import { LocalEnvironment } from '../local-environment.js';
import { MemoryEnvironment } from '../memory/memory-environment.js';
import { makeWorld, type TempWorld } from '../testing/index.js';

let world: TempWorld;
beforeAll(() => {
  world = makeWorld();
});
afterAll(() => world.cleanup());

const memoryFiles = {
  'README.md': '# moss\n',
  src: { 'a.ts': 'export const moss = 1;\n' },
};

const environments: [string, () => Environment][] = [
  ['LocalEnvironment', () => new LocalEnvironment({ root: world.root })],
  ['MemoryEnvironment', () => new MemoryEnvironment({ root: '/tmp/ws', files: memoryFiles })],
];

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'no error';
  } catch (error) {
    return ToolgateError.is(error) ? error.code : `not a ToolgateError: ${String(error)}`;
  }
}

describe.each(environments)('%s path confinement', (_name, make) => {
  it.each([
    ['../outside/secret.txt'],
    ['src/../../outside/secret.txt'],
    ['/etc/passwd'],
    ['../ws_evil/secret.txt'],
  ])('refuses to read %s as PATH_OUTSIDE_ROOT', async (path) => {
    expect(await codeOf(make().readFile(path))).toBe('PATH_OUTSIDE_ROOT');
  });

  it('refuses the sibling-prefix bypass: an absolute path into root_evil', async () => {
    const environment = make();
    const sibling = `${environment.root}_evil/secret.txt`;
    expect(await codeOf(environment.readFile(sibling))).toBe('PATH_OUTSIDE_ROOT');
    expect(await codeOf(environment.writeFile(sibling, 'x'))).toBe('PATH_OUTSIDE_ROOT');
    expect((await environment.resolvePath(sibling)).inside).toBe(false);
  });

  it('accepts an absolute path that lies inside the root', async () => {
    const environment = make();
    expect((await environment.readFile(`${environment.root}/README.md`, { limit: 1 })).content).toBe(
      '# moss',
    );
  });

  it('refuses NUL bytes in paths as INVALID_PATH', async () => {
    const environment = make();
    expect(await codeOf(environment.readFile('README.md\0.txt'))).toBe('INVALID_PATH');
    expect(await codeOf(environment.writeFile('x\0', 'x'))).toBe('INVALID_PATH');
    expect(await codeOf(environment.resolvePath('\0'))).toBe('INVALID_PATH');
  });

  it('never URL-decodes: %2e%2e%2f is a literal file name inside the root', async () => {
    const environment = make();
    expect(await codeOf(environment.readFile('%2e%2e%2foutside%2fsecret.txt'))).toBe('NOT_FOUND');
    expect((await environment.resolvePath('%2e%2e%2fx')).path).toBe('%2e%2e%2fx');
  });

  it('refuses writes and listings that climb out', async () => {
    const environment = make();
    expect(await codeOf(environment.writeFile('../escaped.txt', 'x'))).toBe('PATH_OUTSIDE_ROOT');
    expect(await codeOf(environment.listDirectory('..'))).toBe('PATH_OUTSIDE_ROOT');
    expect(existsSync(join(world.base, 'escaped.txt'))).toBe(false);
  });

  it.each([['../**'], ['/etc/*'], ['src/../../**'], ['{..,src}/**'], ['./../*']])(
    'refuses the glob pattern %s as PATH_OUTSIDE_ROOT',
    async (pattern) => {
      expect(await codeOf(make().glob(pattern))).toBe('PATH_OUTSIDE_ROOT');
      expect(await codeOf(make().search('secret', { glob: pattern }))).toBe('PATH_OUTSIDE_ROOT');
    },
  );

  it('refuses to read or write a directory, the root included, as INVALID_PATH', async () => {
    const environment = make();
    for (const path of ['src', '.']) {
      expect(await codeOf(environment.readFile(path))).toBe('INVALID_PATH');
      expect(await codeOf(environment.writeFile(path, 'x'))).toBe('INVALID_PATH');
    }
  });

  it('collapses repeated slashes in glob patterns', async () => {
    expect((await make().glob('src//a.ts')).paths).toEqual(['src/a.ts']);
  });

  it('resolves ws/../x lexically to a path outside ws, never matching ws/**', async () => {
    expect((await make().resolvePath('src/../README.md')).path).toBe('README.md');
  });
});

describe('LocalEnvironment symlink confinement', () => {
  const environment = () => new LocalEnvironment({ root: world.root });

  it('refuses a symlinked file that points outside', async () => {
    expect(await codeOf(environment().readFile('link-file-out'))).toBe('PATH_OUTSIDE_ROOT');
    expect((await environment().resolvePath('link-file-out')).path).toBe(join(world.outside, 'secret.txt'));
  });

  it('refuses a path through a symlinked parent directory that points outside', async () => {
    expect(await codeOf(environment().readFile('link-dir-out/secret.txt'))).toBe('PATH_OUTSIDE_ROOT');
    expect(await codeOf(environment().listDirectory('link-dir-out'))).toBe('PATH_OUTSIDE_ROOT');
    expect(await codeOf(environment().writeFile('link-dir-out/new.txt', 'x'))).toBe('PATH_OUTSIDE_ROOT');
    expect(existsSync(join(world.outside, 'new.txt'))).toBe(false);
  });

  it('never writes through a dangling symlink to a target outside', async () => {
    expect(await codeOf(environment().writeFile('dangling-out', 'pwned'))).toBe('PATH_OUTSIDE_ROOT');
    expect(existsSync(join(world.outside, 'not-yet.txt'))).toBe(false);
  });

  it('never writes through a symlink to an existing file outside', async () => {
    expect(await codeOf(environment().writeFile('link-file-out', 'pwned'))).toBe('PATH_OUTSIDE_ROOT');
    expect(readFileSync(join(world.outside, 'secret.txt'), 'utf8')).toBe('outside secret\n');
  });

  it('refuses a loop of symlinks as INVALID_PATH', async () => {
    expect(await codeOf(environment().glob('loop-a/*'))).toBe('INVALID_PATH');
    expect(await codeOf(environment().readFile('loop-a'))).toBe('INVALID_PATH');
    expect(await codeOf(environment().writeFile('loop-a', 'x'))).toBe('INVALID_PATH');
  });

  it.each([
    ['link-dir-out/*'],
    ['link-dir-out/secret.txt'],
    ['link-dir-out/{a,secret.txt}'],
    ['link-dir-out/**'],
  ])('refuses a glob whose base goes through a symlink leading out: %s', async (pattern) => {
    expect(await codeOf(environment().glob(pattern))).toBe('PATH_OUTSIDE_ROOT');
  });

  it.each([['l*/*'], ['{link-dir-out,src}/*'], ['*/secret.txt'], ['**/secret.txt']])(
    'never lists a file outside through a symlinked directory the walk meets: %s',
    async (pattern) => {
      const { paths } = await environment().glob(pattern);
      expect(paths.filter((path) => path.startsWith('link-dir-out/'))).toEqual([]);
    },
  );

  it('globs through symlink loops and links leading out without following them', async () => {
    const { paths } = await environment().glob('**');
    expect(paths).toContain('src/a.ts');
    expect(paths.some((path) => path.includes('secret'))).toBe(false);
    expect(paths.some((path) => path.startsWith('src/self/'))).toBe(false);
  });

  it.each([['auto'], ['javascript']] as const)(
    'searches (%s engine) without following symlinks out of the root or around loops',
    async (search) => {
      const searching = new LocalEnvironment({ root: world.root, search });
      expect((await searching.search('secret')).totalMatches).toBe(0);
      expect((await searching.search('moss')).matches.map((match) => match.path)).toEqual([
        'README.md',
        'docs/notes.md',
        'src/a.ts',
        'src/b.ts',
        'src/b.ts',
      ]);
    },
  );
});
