import { describe, expect, it } from 'vitest';
import { patternTokens } from './pattern-tokens.js';

const texts = (pattern: string) =>
  [...patternTokens(pattern)].map((token) => `${token.kind}:${pattern.slice(token.start, token.end)}`);

describe('patternTokens', () => {
  it('reads escapes whole when well formed, and by their letter alone when not', () => {
    expect(texts('\\u{1F600}\\u00e9\\cA\\x41\\d')).toEqual([
      'escape:\\u{1F600}',
      'escape:\\u00e9',
      'escape:\\cA',
      'escape:\\x41',
      'escape:\\d',
    ]);
    expect(texts('\\u{}\\c1\\x4')).toEqual([
      'escape:\\u',
      'char:{',
      'char:}',
      'escape:\\c',
      'char:1',
      'escape:\\x',
      'char:4',
    ]);
    expect([...patternTokens('a\\')].at(-1)).toMatchObject({ kind: 'escape', letter: undefined, text: '\\' });
  });

  it('opens a class with [ or [^, reads [ inside it as a character, and closes it at ]', () => {
    expect(texts('[^[\\s]]')).toEqual(['class-open:[^', 'char:[', 'escape:\\s', 'class-close:]', 'char:]']);
    const tokens = [...patternTokens('[a]b')];
    expect(tokens.map((token) => ('inClass' in token ? token.inClass : token.kind))).toEqual([
      'class-open',
      true,
      'class-close',
      false,
    ]);
  });

  it('covers the whole source, each token starting where the last one ended', () => {
    const pattern = '(?:a|[^\\]x])\\u{10FFFF}+.{2,}$\\';
    let at = 0;
    for (const token of patternTokens(pattern)) {
      expect(token.start).toBe(at);
      at = token.end;
    }
    expect(at).toBe(pattern.length);
  });
});
