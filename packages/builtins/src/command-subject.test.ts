import { describe, expect, it } from 'vitest';
import { commandSubject, unsafeTokenPrefix } from './command-subject.js';

const unsafe = (commands: string[][]) =>
  commands.some((argv) => argv.some((token) => token.startsWith(unsafeTokenPrefix)));

describe('commandSubject', () => {
  it.each([
    ['npm test', [['npm', 'test']]],
    [
      'npm test && rm -rf ~',
      [
        ['npm', 'test'],
        ['rm', '-rf', '~'],
      ],
    ],
    ['a | b; c || d && e', [['a'], ['b'], ['c'], ['d'], ['e']]],
    ['FOO=1 npm test', [['FOO=1', 'npm', 'test']]],
    ['echo \'a b\' "c d"', [['echo', 'a b', 'c d']]],
  ])('splits %j into its commands', (command, expected) => {
    expect(commandSubject(command)).toEqual(expected);
  });

  it.each([
    ['echo $(cat /etc/passwd)'],
    ['echo `id`'],
    ['echo "a`id`"'],
    ['echo $HOME'],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal shell line
    ['echo "${HOME}"'],
    ['ls *.ts'],
    ['echo hi > /etc/x'],
    ['cat < in'],
    ['npm test 2>&1'],
    ['cat <(ls)'],
    ['(rm -rf ~)'],
    ['cat << EOF'],
    ['npm test\nrm -rf ~'],
    ['echo a#b'],
    ['echo {a,b}'],
    ['sleep 100 &'],
    ['c & d'],
    // Conservatively flagged even when quoted: a substitution-looking token never passes a plain rule.
    ["echo '$(x)'"],
  ])('marks %j with a token no plain rule can match', (command) => {
    const subject = commandSubject(command);
    expect(unsafe(subject)).toBe(true);
    expect(subject.some((argv) => argv.length === 1 && argv[0]!.startsWith(unsafeTokenPrefix))).toBe(true);
  });
});
