import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalEnvironment } from '../local-environment.js';
import { MemoryEnvironment } from '../memory/memory-environment.js';
import { makeWorld, type TempWorld } from '../testing/index.js';
import { defaultProtectedPaths, protectedPathList } from './protected-paths.js';

let world: TempWorld;
beforeEach(() => {
  world = makeWorld();
  mkdirSync(join(world.root, '.git', 'hooks'), { recursive: true });
  writeFileSync(join(world.root, '.git', 'config'), '[core]\n');
});
afterEach(() => world.cleanup());

const refusal = (path: string, entry: string) =>
  expect.objectContaining({
    code: 'PERMISSION_DENIED',
    message: expect.stringContaining(
      `writing "${path}" is refused: it is under "${entry}", one of the environment's protected paths (protectedPaths`,
    ),
  });

describe('protected paths refused to writeFile', () => {
  it('refuses the defaults in LocalEnvironment, existing or not, and writes nothing', async () => {
    const environment = new LocalEnvironment({ root: world.root });
    for (const [path, entry] of [
      ['.git/config', '.git'],
      ['.git/hooks/pre-commit', '.git'],
      ['.envrc', '.envrc'],
      ['.vscode/tasks.json', '.vscode'],
      ['.mcp.json', '.mcp.json'],
      ['.toolgate/policy.yaml', '.toolgate'],
      ['src/../.idea/workspace.xml', '.idea'],
    ] as const) {
      await expect(environment.writeFile(path, 'planted')).rejects.toEqual(
        refusal(path.replace('src/../', ''), entry),
      );
    }
    expect(readFileSync(join(world.root, '.git', 'config'), 'utf8')).toBe('[core]\n');
    // An ordinary file next to them is written: the refusal is about the list, not the directory.
    await expect(environment.writeFile('.gitignore', 'dist\n')).resolves.toMatchObject({ created: true });
  });

  it('refuses a symlink that leads to a protected path, judged on where it resolves', async () => {
    symlinkSync('.git/hooks', join(world.root, 'hooks'));
    const environment = new LocalEnvironment({ root: world.root });
    await expect(environment.writeFile('hooks/post-checkout', 'planted')).rejects.toEqual(
      refusal('.git/hooks/post-checkout', '.git'),
    );
  });

  it('refuses the git directory a .git file points to inside the root', async () => {
    mkdirSync(join(world.root, 'sub', 'gitdirs', 'main'), { recursive: true });
    writeFileSync(join(world.root, 'sub', '.git'), 'gitdir: gitdirs/main\n');
    const environment = new LocalEnvironment({ root: join(world.root, 'sub') });
    await expect(environment.writeFile('gitdirs/main/config', 'planted')).rejects.toEqual(
      refusal('gitdirs/main/config', 'gitdirs/main'),
    );
  });

  it('lets a path opted out be written, and protects one added', async () => {
    const environment = new LocalEnvironment({
      root: world.root,
      protectedPaths: { '.vscode': false, 'deploy/keys': true },
    });
    await expect(environment.writeFile('.vscode/settings.json', '{}')).resolves.toMatchObject({
      created: true,
    });
    await expect(environment.writeFile('deploy/keys/id', 'x')).rejects.toEqual(
      refusal('deploy/keys/id', 'deploy/keys'),
    );
    await expect(environment.writeFile('.git/config', 'x')).rejects.toEqual(refusal('.git/config', '.git'));
  });

  it('refuses the same paths in MemoryEnvironment', async () => {
    const environment = new MemoryEnvironment({ files: { '.git': { config: '[core]\n' } } });
    await expect(environment.writeFile('.git/config', 'x')).rejects.toEqual(refusal('.git/config', '.git'));
    await expect(environment.writeFile('.envrc', 'x')).rejects.toEqual(refusal('.envrc', '.envrc'));
    expect(environment.snapshot()).toEqual({ '.git/config': '[core]\n' });
    const opted = new MemoryEnvironment({ protectedPaths: { '.envrc': false } });
    await expect(opted.writeFile('.envrc', 'x')).resolves.toMatchObject({ created: true });
  });

  it('refuses a malformed protectedPaths entry when the environment is made', () => {
    expect(() => protectedPathList({ '../up': true })).toThrow(
      expect.objectContaining({ code: 'INVALID_DEFINITION' }),
    );
    expect(() => protectedPathList({ '/etc': true })).toThrow(
      expect.objectContaining({ code: 'INVALID_DEFINITION' }),
    );
    expect(() => protectedPathList({ x: 'yes' as unknown as boolean })).toThrow(
      expect.objectContaining({
        code: 'INVALID_DEFINITION',
        message: expect.stringMatching(/use true to protect/),
      }),
    );
    expect(protectedPathList(undefined)).toEqual([...defaultProtectedPaths].sort());
  });
});
