import { RulePolicy, ToolgateError } from '@toolgate/core';
import { describe, expect, it } from 'vitest';
import { commandSubject, shellSubject, unsafeTokenPrefix } from './command-subject.js';

const refusal = (command: string) => {
  try {
    shellSubject(command);
  } catch (error) {
    return ToolgateError.is(error) ? error : undefined;
  }
  return undefined;
};

/** The verdict of a policy that allows every plain command and nothing else. */
const allowPlain = (command: string) => {
  const policy = new RulePolicy({
    default: 'deny',
    rules: [{ tools: ['shell'], commands: ['*'], decision: 'allow' }],
  });
  return policy.decide({ agent: 'a', tool: 'shell', parameters: {}, subject: shellSubject(command) })
    .decision;
};

describe('commandSubject', () => {
  it.each([
    ['npm test', [['npm', 'test']]],
    [
      'npm test && rm -rf ~',
      [
        ['npm', 'test'],
        ['rm', '-rf', `${unsafeTokenPrefix}tilde:~`],
      ],
    ],
    ['a | b; c || d && e', [['a'], ['b'], ['c'], ['d'], ['e']]],
    [
      'FOO=1 npm test',
      [
        ['FOO=1', 'npm', 'test'],
        ['npm', 'test'],
      ],
    ],
    ['echo \'a b\' "c d"', [['echo', 'a b', 'c d']]],
    // Both shells read these alike, and they name no file: known exactly (the differential test runs them).
    ['npm test 2>&1', [['npm', 'test']]],
    ['echo a#b', [['echo', 'a#b']]],
    ['npm test # a comment', [['npm', 'test']]],
    ['\\rm \'f\' "g"', [['rm', 'f', 'g']]],
    // Quoted, `$(x)` is plain text to both shells: no longer flagged (the old parser flagged it).
    ["echo '$(x)'", [['echo', '$(x)']]],
  ])('splits %j into its commands', (command, expected) => {
    expect(commandSubject(command)).toEqual(expected);
  });

  it.each([
    ['echo $(cat /etc/passwd)', '$(…)'],
    ['echo `id`', '`…`'],
    ['echo "a`id`"', '`…`'],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal shell line
    ['echo "${HOME:-x}"', '${…}'],
    ['cat <(ls)', 'process substitution'],
    ['(rm -rf ~)', 'subshell'],
    ['{ rm -rf ~; }', '"{"'],
    ['cat << EOF', 'here-document'],
    ['cat <<< x', 'here-document'],
    ["npm $'test\\0\\' ; touch X ; ' '", "$'…'"],
    ['echo $"x"', '$"…"'],
    ["echo 'a", 'unbalanced'],
    ['echo "a', 'unbalanced'],
    ['echo a\\', 'backslash'],
    ['echo a\u0000b', 'U+0000'],
    ['echo a\rb', 'U+000D'],
    ['npm test &> out', '&>'],
    ['a |& b', '|&'],
    ['echo $[1+2]', '$[…]'],
    ['if true; then rm f; fi', '"if"'],
    ['time rm f', '"time"'],
    ['! rm f', '"!"'],
    ['A+=1 rm f', '+='],
    ['echo x 10> f', 'descriptor 10'],
    ['echo x >& f', 'duplicates'],
    ['echo x > *.txt', 'glob'],
    ['echo x > /dev/tcp/127.0.0.1/80', 'network'],
    ['alias ls=rm; ls f', 'alias'],
    ['set -k; rm f', 'set'],
    ['cd sub && echo x > f', 'cd'],
    ["sh -c 'echo $(id)'", '$(…)'],
    ['a && ', '&&'],
    ['; a', ';'],
  ])('refuses %j, naming %s', (command, named) => {
    const error = refusal(command);
    expect(error?.code).toBe('PERMISSION_DENIED');
    expect(error?.message).toContain('toolgate refused the shell line');
    expect(error?.message).toContain(named);
  });

  it.each([
    ['echo $HOME', 'variable'],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal shell line
    ['echo "${HOME}"', 'variable'],
    ['ls *.ts', 'glob'],
    ['cat /etc/passw[d]', 'glob'],
    ['cat ~/.ssh/id_rsa', 'tilde'],
    ['echo {a,b}', 'brace'],
  ])('marks %j with a %s token that no rule allowing commands can match', (command, kind) => {
    const subject = commandSubject(command);
    expect(
      subject.some((argv) => argv.some((token) => token.startsWith(`${unsafeTokenPrefix}${kind}:`))),
    ).toBe(true);
    expect(allowPlain(command)).toBe('deny');
  });

  it.each([
    ['echo hi > /etc/x', ['/etc/x']],
    ['cat < in', ['in']],
    ['a 2> err >> log <> both; b >| clobber', ['err', 'log', 'both', 'clobber']],
    ['a > /dev/null 2>&1', []],
  ])('gives the files %j redirects as paths', (command, paths) => {
    expect(shellSubject(command).paths).toEqual(paths);
  });

  it.each([['sleep 100 &'], ['c & d'], ['npm test\nrm -rf ~']])(
    'gives %j a command no rule allowing commands can match',
    (command) => {
      expect(allowPlain(command)).toBe('deny');
    },
  );

  it('keeps a quoted or escaped keyword a plain command name, as both shells do', () => {
    expect(commandSubject("'if' x; \\time y")).toEqual([['if', 'x'], ['time', 'y'], ['y']]);
  });

  it('follows sh -c four deep and refuses a fifth', () => {
    const nest = (depth: number): string =>
      depth === 0 ? 'rm f' : `sh -c ${`'${nest(depth - 1).replaceAll("'", "'\\''")}'`}`;
    expect(commandSubject(nest(4))).toContainEqual(['rm', 'f']);
    expect(refusal(nest(5))?.message).toContain('more than 4 deep');
  });

  it('refuses a line longer than sh -c can take, saying what to do', () => {
    const error = refusal(`echo ${'x'.repeat(140_000)}`);
    expect(error?.code).toBe('INVALID_PARAMETERS');
    expect(error?.message).toContain('write_file');
  });
});
