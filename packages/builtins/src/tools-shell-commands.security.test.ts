import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RulePolicy } from '@toolgate/core';
import { LocalEnvironment } from '@toolgate/environment';
import { afterEach, describe, expect, it } from 'vitest';
import { policies } from './policies.js';
import { builtinAgent, codeOf } from './testing-fixtures/agent.js';

// Issue 24's attacks on the shell tool, run for real: a workspace holding `f`, a policy that allows
// everything but `rm`, and the line given to the `shell` tool over a LocalEnvironment (`/bin/sh`).
const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function workspace(): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'toolgate-shell-commands-')));
  roots.push(root);
  writeFileSync(join(root, 'f'), 'precious\n');
  mkdirSync(join(root, 'sub'));
  return root;
}

const denyRm = new RulePolicy({
  default: 'allow',
  rules: [{ tools: ['shell'], commands: ['rm *'], decision: 'deny', reason: 'no deleting' }],
});

const bypasses = [
  '/bin/rm f',
  '\\rm f',
  "'rm' f",
  'env rm f',
  'env -i FOO=1 rm f',
  'command rm f',
  'nice rm f',
  'nice -n 5 rm f',
  'nohup rm f',
  'timeout 5 rm f',
  'stdbuf -oL rm f',
  'FOO=1 rm f',
  "sh -c 'rm f'",
  'bash -c "rm f"',
  "sh -c -- 'rm f'",
  "sh -e -c -x 'rm f' name",
  `dash -c "sh -c 'rm f'"`,
  'echo f | xargs rm',
  'echo f | xargs -n 1 rm -f',
  'find . -name f -delete',
  'find . -name f -exec rm {} +',
  "find . -name f -exec rm '{}' ';'",
  "find . -name f -exec sh -c 'rm \"$1\"' _ {} ';'",
  'python3 -c "import os; os.remove(\'f\')"',
  "node -e \"require('fs').unlinkSync('f')\"",
  'perl -e \'unlink "f"\'',
  'awk \'BEGIN { system("rm f") }\'',
  "eval 'rm f'",
  'echo rm f | sh',
  'rm f &',
  'true && rm f',
];

describe('a deny rule on `rm *` holds however the command is named or wrapped', () => {
  it.each(bypasses)('denies %j and f survives; without the rule the same line deletes f', async (command) => {
    const guarded = workspace();
    const denied = await builtinAgent(new LocalEnvironment({ root: guarded }), denyRm).callTool('shell', {
      command,
    });
    expect(codeOf(denied)).toBe('PERMISSION_DENIED');
    expect(existsSync(join(guarded, 'f'))).toBe(true);

    // The control: the line really deletes when policy allows it, so the denial above is what saved f.
    const open = workspace();
    const allowed = await builtinAgent(new LocalEnvironment({ root: open }), policies.allowAll()).callTool(
      'shell',
      { command: `${command}\nwait` },
    );
    expect(codeOf(allowed)).toBe('ok');
    expect(existsSync(join(open, 'f'))).toBe(false);
  });

  it('still runs what the rule does not name, wrapped or not', async () => {
    const root = workspace();
    const agent = builtinAgent(new LocalEnvironment({ root }), denyRm);
    for (const command of ['env cat f', 'timeout 5 cat f', "sh -c 'cat f'", 'echo f | xargs cat', 'ls *'])
      expect(codeOf(await agent.callTool('shell', { command }))).toBe('ok');
  });
});

describe('a line dash would read differently is refused, and nothing runs', () => {
  const attack = "npm $'test\\0\\' ; touch X ; ' '";

  it('dash really runs touch X from the ANSI-C line (the attack is real)', () => {
    const root = workspace();
    spawnSync('/bin/dash', ['-c', attack], { cwd: root, stdio: 'ignore' });
    expect(existsSync(join(root, 'X'))).toBe(true);
  });

  it.each([
    [
      'a rule allowing npm test',
      new RulePolicy({ rules: [{ tools: ['shell'], commands: ['npm test'], decision: 'allow' }] }),
    ],
    ['allow-all', policies.allowAll()],
  ])("under %s the line is refused, naming $'…', and X is never made", async (_name, policy) => {
    const root = workspace();
    const result = await builtinAgent(new LocalEnvironment({ root }), policy).callTool('shell', {
      command: attack,
    });
    expect(codeOf(result)).toBe('PERMISSION_DENIED');
    expect(result.isError && result.error.message).toContain("$'…'");
    expect(existsSync(join(root, 'X'))).toBe(false);
  });
});

describe('redirection targets are paths, judged by path rules', () => {
  const policy = new RulePolicy({
    default: 'allow',
    rules: [{ tools: ['shell'], paths: ['secret.txt', 'sub/**'], decision: 'deny' }],
  });

  it.each([
    ['echo x > secret.txt'],
    ['echo x >> ./sub/../secret.txt'],
    ['cat < sub/in'],
    ["sh -c 'echo x > sub/o'"],
  ])('denies %j and writes nothing', async (command) => {
    const root = workspace();
    const result = await builtinAgent(new LocalEnvironment({ root }), policy).callTool('shell', { command });
    expect(codeOf(result)).toBe('PERMISSION_DENIED');
    expect(existsSync(join(root, 'secret.txt'))).toBe(false);
    expect(existsSync(join(root, 'sub', 'o'))).toBe(false);
  });

  it('allows a redirection to a path no rule denies, and the file is written', async () => {
    const root = workspace();
    const result = await builtinAgent(new LocalEnvironment({ root }), policy).callTool('shell', {
      command: 'echo x > out.txt 2>/dev/null',
    });
    expect(codeOf(result)).toBe('ok');
    expect(existsSync(join(root, 'out.txt'))).toBe(true);
  });
});
