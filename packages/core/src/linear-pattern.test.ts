import { describe, expect, it } from 'vitest';
import { linearPattern } from './linear-pattern.js';

const texts = [
  '',
  'a',
  'abc',
  'ABC 123',
  'foo_bar',
  'a\u00a0b',
  'a\tb',
  'a\nb',
  'a\rb',
  'é',
  '😀',
  'x/y',
  '-',
  'a{2}',
  'aaa!',
];

describe('linearPattern', () => {
  it.each([
    ['abc'],
    ['^a'],
    ['c$'],
    ['^\\w+$'],
    ['\\d'],
    ['\\s'],
    ['\\S+'],
    ['[\\s_]'],
    ['a.b'],
    ['^.$'],
    ['\\u00e9'],
    ['\\u{1F600}'],
    ['\\x41'],
    ['\\cI'],
    ['\\bfoo'],
    ['x\\/y'],
    ['[^a-z]'],
    ['(?:ab|c)+'],
    ['(?<name>a)b'],
    ['a{2,}'],
    ['\\p{Lu}'],
    ['^-$'],
  ])('agrees with JavaScript on %s', (pattern) => {
    const linear = linearPattern(pattern);
    const javascript = new RegExp(pattern, 'u');
    for (const text of texts) expect([text, linear.test(text)]).toEqual([text, javascript.test(text)]);
  });

  it.each([
    ['(?=a)', /lookaround/],
    ['(?<!a)b', /lookaround/],
    ['(a)\\1', /backreference/],
    ['(?<x>a)\\k<x>', /backreference/],
    ['[\\S]', /inside a character class/],
    ['(unclosed', /not a valid JavaScript regular expression/],
    ['\\uD83D', /lone surrogate/],
  ])('refuses %s with INVALID_DEFINITION', (pattern, why) => {
    expect(() => linearPattern(pattern)).toThrow(expect.objectContaining({ code: 'INVALID_DEFINITION' }));
    expect(() => linearPattern(pattern)).toThrow(why);
  });
});
