import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalEnvironment } from '../local-environment.js';
import { runScript } from '../test-support/run-script.js';
import {
  giveToSandboxUser,
  makeWorld,
  sandboxSkipReason,
  sandboxTestUser,
  type TempWorld,
} from '../testing/index.js';
import { SandboxEnvironment } from './index.js';

const attackScript = new URL('../testing-fixtures/sandbox-attacks.ts', import.meta.url).pathname;

let world: TempWorld;
let marker: string;
beforeEach(() => {
  world = makeWorld();
  execFileSync('git', ['init', '-q', world.root]);
  marker = join(world.base, 'planted-ran');
});
afterEach(() => world.cleanup());

/** A host `git status` in the workspace, as a user would run it after the agent: runs fsmonitor and hooks. */
function hostGitStatus(): void {
  execFileSync('git', ['-c', 'safe.directory=*', 'status', '--short'], { cwd: world.root, stdio: 'ignore' });
  execFileSync('git', ['-c', 'safe.directory=*', 'checkout', '-q', '-b', 'after'], {
    cwd: world.root,
    stdio: 'ignore',
  });
}

/** Plants, from inside, a `core.fsmonitor` and a hook that would touch the marker on the host. */
function plant(): string {
  return [
    `git config core.fsmonitor "touch ${marker}"`,
    `printf '#!/bin/sh\\ntouch ${marker}\\n' > .git/hooks/post-checkout`,
    'chmod +x .git/hooks/post-checkout',
    `echo "touch ${marker}" > .envrc`,
    'mkdir -p .vscode && echo "{}" > .vscode/tasks.json',
    'echo "{}" > .mcp.json',
    'echo ok > ordinary.txt',
  ].join('; ');
}

describe.skipIf(sandboxSkipReason() !== undefined)('SandboxEnvironment protected paths', () => {
  it('holds .git and the other protected paths read-only; a host git status runs nothing planted', async () => {
    const config = readFileSync(join(world.root, '.git', 'config'), 'utf8');
    giveToSandboxUser(world.root);
    const result = await new SandboxEnvironment({ root: world.root }).exec(plant());
    expect(result.stderr).toMatch(/\.git\/config: Read-only file system/);
    expect(readFileSync(join(world.root, 'ordinary.txt'), 'utf8')).toBe('ok\n');
    expect(readFileSync(join(world.root, '.git', 'config'), 'utf8')).toBe(config);
    expect(existsSync(join(world.root, '.git', 'hooks', 'post-checkout'))).toBe(false);
    for (const name of ['.envrc', '.vscode', '.mcp.json'])
      expect(existsSync(join(world.root, name))).toBe(false);
    hostGitStatus();
    expect(existsSync(marker)).toBe(false);
  });

  it('the same plant without the sandbox does run on the host (the test would see a leak)', async () => {
    await new LocalEnvironment({ root: world.root }).exec(plant());
    hostGitStatus();
    expect(existsSync(marker)).toBe(true);
  });

  it.skipIf(process.getuid?.() !== 0)(
    'holds them as well for an unprivileged user (nobody), run from a root test',
    async () => {
      const run = await runScript(attackScript, ['plant'], { user: sandboxTestUser });
      expect(run.stderr).toBe('');
      expect(JSON.parse(run.stdout)).toEqual({ ran: false, hook: false, envrc: false });
    },
    120_000,
  );

  it('leaves no placeholder behind, and an opted-out path writable', async () => {
    giveToSandboxUser(world.root);
    const before = readdirSync(world.root).sort();
    const environment = new SandboxEnvironment({ root: world.root, protectedPaths: { '.vscode': false } });
    const result = await environment.exec('mkdir .vscode && echo "{}" > .vscode/tasks.json; echo x > .envrc');
    expect(result.stderr).toMatch(/\.envrc: Is a directory/);
    expect(readFileSync(join(world.root, '.vscode', 'tasks.json'), 'utf8')).toBe('{}\n');
    expect(readdirSync(world.root).sort()).toEqual([...before, '.vscode'].sort());
  });

  it('holds the git directory of a .git file (a worktree) read-only when it lies inside the root', async () => {
    const workspace = join(world.root, 'repo');
    const gitdir = join(workspace, 'gitdirs', 'main');
    mkdirSync(join(gitdir, 'hooks'), { recursive: true });
    writeFileSync(join(gitdir, 'config'), '[core]\n');
    writeFileSync(join(workspace, '.git'), 'gitdir: gitdirs/main\n');
    giveToSandboxUser(world.root);
    const result = await new SandboxEnvironment({ root: workspace }).exec(
      'echo x >> gitdirs/main/config; echo y > gitdirs/main/hooks/pre-commit; echo "gitdir: /elsewhere" > .git',
    );
    expect(result.stderr.match(/Read-only file system/g)).toHaveLength(3);
    expect(readFileSync(join(gitdir, 'config'), 'utf8')).toBe('[core]\n');
    expect(readFileSync(join(workspace, '.git'), 'utf8')).toBe('gitdir: gitdirs/main\n');
    expect(existsSync(join(gitdir, 'hooks', 'pre-commit'))).toBe(false);
  });

  it('refuses to run when a protected path is a symbolic link it cannot hold', async () => {
    symlinkSync(world.outside, join(world.root, '.idea'));
    giveToSandboxUser(world.root);
    await expect(new SandboxEnvironment({ root: world.root }).exec('true')).rejects.toMatchObject({
      code: 'COMMAND_FAILED',
      message: expect.stringMatching(/protected path "\.idea" is a symbolic link/),
    });
  });
});
