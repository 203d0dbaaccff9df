import { describe, expect, it } from 'vitest';
import { compileSearchPattern, ripgrepPattern } from './search-pattern.js';

describe('ripgrepPattern', () => {
  it.each([
    ['foo', 'foo'],
    ['\\w+', '[0-9A-Za-z_]+'],
    ['\\bfoo\\b', '(?-u:\\b)foo(?-u:\\b)'],
    ['[\\d_]', '[0-9_]'],
    ['a\\/b', 'a/b'],
    ['x{2,3}', 'x{2,3}'],
    ['(?:a|b)', '(?:a|b)'],
  ])('spells %s for ripgrep as %s', (pattern, expected) => {
    expect(ripgrepPattern(pattern)).toBe(expected);
  });

  it.each([['(?<=a)b'], ['(?=a)'], ['(a)\\1'], ['(?<name>a)'], ['[^\\W]'], ['\\cJ'], ['\\u{61}'], ['\\0']])(
    'leaves %s to the JavaScript engine',
    (pattern) => {
      expect(ripgrepPattern(pattern)).toBeUndefined();
    },
  );
});

describe('compileSearchPattern', () => {
  it('refuses an empty pattern and a malformed one with INVALID_PATH', () => {
    expect(() => compileSearchPattern('')).toThrow(expect.objectContaining({ code: 'INVALID_PATH' }));
    expect(() => compileSearchPattern('a(')).toThrow(/not a valid regular expression/);
  });

  it('matches any code point with a dot, including a carriage return', () => {
    expect(compileSearchPattern('a.b').test('a\rb')).toBe(true);
    expect(compileSearchPattern('a.b').test('a😀b')).toBe(true);
  });
});
