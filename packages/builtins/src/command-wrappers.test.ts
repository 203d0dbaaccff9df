import { type Policy, RulePolicy } from '@toolgate/core';
import { describe, expect, it } from 'vitest';
import { commandSubject, unsafeTokenPrefix } from './command-subject.js';
import { laterArguments } from './command-wrappers.js';

const decide = (policy: Policy, command: string) =>
  policy.decide({
    agent: 'a',
    tool: 'shell',
    parameters: {},
    subject: { commands: commandSubject(command) },
  });

const denyRm = new RulePolicy({
  default: 'allow',
  rules: [{ tools: ['shell'], commands: ['rm *'], decision: 'deny' }],
});

describe('commands seen through wrappers', () => {
  it.each([
    ['env -i -u HOME -- A=1 rm a', ['rm', 'a']],
    ['/usr/bin/env rm a', ['rm', 'a']],
    ['/usr/bin/env /bin/rm a', ['/bin/rm', 'a']],
    ['command -p rm a', ['rm', 'a']],
    ['env -- A=1 rm a', ['rm', 'a']],
    ['exec -a name rm a', ['rm', 'a']],
    ['nice -n5 rm a', ['rm', 'a']],
    ['nice -5 rm a', ['rm', 'a']],
    ['nohup rm a', ['rm', 'a']],
    ['timeout -s KILL --kill-after=1 5s rm a', ['rm', 'a']],
    ['stdbuf -o L -eL rm a', ['rm', 'a']],
    ["'time' -p rm a", ['rm', 'a']],
    ['sudo -u root -E A=1 rm a', ['rm', 'a']],
    ['doas -u root rm a', ['rm', 'a']],
    ['busybox rm a', ['rm', 'a']],
    ["sh -c 'rm a'", ['rm', 'a']],
    ["bash -ec 'true; rm a'", ['rm', 'a']],
    ["sh -c -- 'rm a'", ['rm', 'a']],
    ["sh -c -e -o pipefail 'rm a' name x", ['rm', 'a']],
    ['dash -c "bash -c \'rm a\'"', ['rm', 'a']],
    ['nice timeout 5 env rm a', ['rm', 'a']],
    ['xargs -0 -n 1 rm -f', ['rm', '-f', laterArguments]],
    ['find . -name a -delete', ['rm', laterArguments]],
    ['find . -exec rm {} +', ['rm', laterArguments]],
    ["find . -execdir rm -f '{}' ';' -ok git add {} ;", ['git', 'add', laterArguments]],
  ])('%j runs %j', (command, inner) => {
    expect(commandSubject(command)).toContainEqual(inner);
    expect(decide(denyRm, command).decision).toBe('deny');
  });

  it('reads env options only before the first assignment, as GNU env does', () => {
    expect(commandSubject('env A=1 -i rm a')).toContainEqual(['-i', 'rm', 'a']);
    expect(commandSubject('env A=1 -- rm a')).toContainEqual(['--', 'rm', 'a']);
  });

  it('lets a rule denying `rm …` deny the program named by a path, while an allow names it as written', () => {
    for (const command of ['/bin/rm -f a', './rm a', 'timeout 5 /usr/bin/rm a', 'x/rm $X'])
      expect(decide(denyRm, command).decision).toBe('deny');
    const allowScript = new RulePolicy({
      rules: [{ tools: ['shell'], commands: ['./scripts/test.sh'], decision: 'allow' }],
    });
    expect(decide(allowScript, './scripts/test.sh').decision).toBe('allow');
    expect(decide(allowScript, 'test.sh').decision).toBe('deny');
    expect(decide(allowScript, '/tmp/scripts/test.sh').decision).toBe('deny');
  });

  it('judges a bare xargs as the echo it runs, with arguments from stdin', () => {
    expect(commandSubject('xargs')).toContainEqual(['echo', laterArguments]);
    expect(decide(denyRm, 'xargs').decision).toBe('allow');
  });

  it('names nothing more than the command when a wrapper only looks (command -v)', () => {
    expect(commandSubject('command -v rm')).toEqual([['command', '-v', 'rm']]);
    expect(decide(denyRm, 'command -v rm').decision).toBe('allow');
  });

  it.each([
    ['python3 -c "print(1)"'],
    ['python3'],
    ['node -e 1'],
    ['perl -ne "print" f'],
    ['ruby -e 1'],
    ["awk '{ print }' f"],
    ["sed 's/a/b/e' f"],
    ["eval 'ls'"],
    ['source ./env.sh'],
    ['. ./env.sh'],
    ['sh'],
    ['bash -s'],
    ['bash -i'],
    ["bash -O expand_aliases -c 'rm a'"],
    ["env -S 'rm a'"],
    ['nice --unknown-option rm a'],
    ["watch 'rm a'"],
    ['LD_PRELOAD=./evil.so ls'],
    ['env BASH_ENV=./evil.sh bash -c ls'],
    ["zsh -c '=rm a'"],
  ])('%j runs code toolgate cannot read: every rule that denies commands applies', (command) => {
    const subject = commandSubject(command);
    expect(subject.some((argv) => argv.at(-1)?.startsWith(`${unsafeTokenPrefix}code:`))).toBe(true);
    expect(decide(denyRm, command).decision).toBe('deny');
    const allowPlain = new RulePolicy({ rules: [{ tools: ['shell'], commands: ['*'], decision: 'allow' }] });
    expect(decide(allowPlain, command).decision).toBe('deny');
  });

  it.each([['python3 -m pytest'], ['node build.js'], ['awk -f prog.awk f'], ["sed --sandbox 's/a/b/' f"]])(
    '%j runs a program from a file, judged as the command it is',
    (command) => {
      expect(decide(denyRm, command).decision).toBe('allow');
    },
  );

  it('judges a token known only at run time against a deny rule by whether it could match', () => {
    const denyGitPush = new RulePolicy({
      default: 'allow',
      rules: [{ tools: ['shell'], commands: ['git push *'], decision: 'deny' }],
    });
    expect(decide(denyGitPush, 'git $X origin').decision).toBe('deny');
    expect(decide(denyGitPush, 'ls *.ts').decision).toBe('allow');
    expect(decide(denyGitPush, '$CMD push').decision).toBe('deny');
    expect(decide(denyGitPush, 'git status *').decision).toBe('allow');
  });

  it('names the denied command readably, its unknown parts marked', () => {
    expect(decide(denyRm, 'echo f | xargs rm').reason).toContain(
      'command "rm ‹arguments supplied when it runs›"',
    );
  });
});
