import { describe, expect, it } from 'vitest';
import { ToolgateError } from '../errors.js';
import { parseCommandLine } from './parse-command-line.js';
import { usageMessage } from './usage-message.js';
import { wholeNumber } from './whole-number.js';

const options = {
  port: { type: 'string' },
  http: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return ToolgateError.is(error) ? `${error.code}: ${error.message}` : `not a ToolgateError: ${error}`;
  }
  return 'accepted';
};

describe('parseCommandLine', () => {
  it('reads options strictly, a dashed value as the value, and positionals only when allowed', () => {
    expect(parseCommandLine(['--port', '-1', '-h'], { options }).values).toEqual({ port: '-1', help: true });
    expect(parseCommandLine(['verify', 'a.jsonl', '--http'], { options, positionals: true })).toMatchObject({
      values: { http: true },
      positionals: ['verify', 'a.jsonl'],
    });
    expect(refusal(() => parseCommandLine(['--prot', '1'], { options }))).toMatch(
      /^INVALID_DEFINITION: Unknown option '--prot'/,
    );
    expect(refusal(() => parseCommandLine(['a.jsonl'], { options }))).toMatch(
      /^INVALID_DEFINITION: Unexpected argument 'a.jsonl'/,
    );
    expect(refusal(() => parseCommandLine(['--port', '--http'], { options }))).toBe(
      'INVALID_DEFINITION: --port needs a value, but the next argument is the option --http',
    );
  });
});

describe('wholeNumber', () => {
  it('takes digits within the bounds', () => {
    expect(wholeNumber('0', { option: '--port', max: 65535 })).toBe(0);
    expect(wholeNumber('65535', { option: '--port', max: 65535 })).toBe(65535);
    expect(wholeNumber('7', { option: '--turns', min: 1 })).toBe(7);
  });

  it('refuses anything else, echoing the value and saying what is expected', () => {
    expect(refusal(() => wholeNumber('-1', { option: '--port', max: 65535 }))).toBe(
      'INVALID_DEFINITION: --port must be a whole number from 0 to 65535, not "-1"',
    );
    expect(refusal(() => wholeNumber('0', { option: '--turns', min: 1 }))).toBe(
      'INVALID_DEFINITION: --turns must be a whole number of at least 1, not "0"',
    );
    for (const text of ['', ' 5', '1e3', '5.0', '0x10', '99999999999999999'])
      expect(refusal(() => wholeNumber(text, { option: '--pid' }))).toBe(
        `INVALID_DEFINITION: --pid must be a whole number, not ${JSON.stringify(text)}`,
      );
  });
});

describe('usageMessage', () => {
  it('is one line naming the command and the problem, then the usage when given', () => {
    expect(usageMessage({ command: 'toolgate-ledger', problem: 'no command given' })).toBe(
      'toolgate-ledger: no command given\n',
    );
    expect(
      usageMessage({ command: 'toolgate-ledger', problem: 'no command given', usage: 'usage: …\n' }),
    ).toBe('toolgate-ledger: no command given\n\nusage: …\n');
  });
});
