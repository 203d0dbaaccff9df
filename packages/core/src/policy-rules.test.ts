import { describe, expect, it } from 'vitest';
import { commandTokens } from './policy-rules.js';
import { random } from './test-support/policy-cases.js';

const pieces = [
  'git',
  'status',
  '*',
  '-x',
  ' ',
  '  ',
  '\t',
  '\n',
  '\r',
  '\v',
  '\f',
  '\u00a0',
  '\u2003',
  '\u3000',
  '\ufeff',
  '\u2028',
  'é',
  '\u0000',
  '\u007f',
];

describe('the tokens of a rule command', () => {
  it('are the words between runs of whitespace, as trim and a split on /\\s+/ give them', () => {
    const generate = random(2027);
    const commands = ['', ' ', 'git', 'git status *', ' git status', 'git status ', 'git  status'];
    for (let round = 0; round < 5000; round++) commands.push(generate.some(pieces, 8).join(''));
    for (const command of commands)
      expect(commandTokens(command), JSON.stringify(command)).toEqual(command.trim().split(/\s+/));
  });
});
