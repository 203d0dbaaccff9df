import { describe, expect, it } from 'vitest';
import { capOutput, capText, toJsonValue } from './json.js';

describe('toJsonValue', () => {
  it('passes plain JSON through, converting dates and dropping undefined properties', () => {
    const when = new Date('2026-01-02T03:04:05.000Z');
    expect(toJsonValue({ a: [1, 'x', null, true], b: undefined, when })).toEqual({
      a: [1, 'x', null, true],
      when: '2026-01-02T03:04:05.000Z',
    });
    expect(toJsonValue(undefined)).toBeNull();
  });

  it('accepts the same object twice when it is not a cycle', () => {
    const shared = { x: 1 };
    expect(toJsonValue({ left: shared, right: shared })).toEqual({ left: { x: 1 }, right: { x: 1 } });
  });

  it.each([
    ['a function', { f: () => 1 }, '$.f: a function has no JSON form'],
    ['a bigint', { n: 10n }, '$.n: a bigint has no JSON form'],
    ['a symbol', [Symbol('s')], '$[0]: a symbol has no JSON form'],
    ['NaN', { n: Number.NaN }, 'the number NaN has no JSON form'],
    ['Infinity', { n: Number.POSITIVE_INFINITY }, 'the number Infinity has no JSON form'],
    ['a Map', { m: new Map() }, 'a Map has no JSON form'],
    ['a Set', new Set([1]), 'a Set has no JSON form'],
  ])('refuses %s, naming where it is', (_label, value, message) => {
    expect(() => toJsonValue(value, 'the output')).toThrow(message);
  });

  it('refuses a cycle', () => {
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    expect(() => toJsonValue(cyclic)).toThrow(
      'value is not JSON at $.self: it refers back to itself (a cycle)',
    );
  });
});

describe('capText and capOutput', () => {
  it('leaves short text alone', () => {
    expect(capText('hello', 5)).toEqual({ text: 'hello', truncated: false, omitted: 0 });
  });

  it('cuts long text and says how much was left out', () => {
    const capped = capText('abcdefghij', 4);
    expect(capped.text).toBe('abcd\n[… truncated: 6 more characters not shown]');
    expect(capped.omitted).toBe(6);
  });

  it('never splits a surrogate pair', () => {
    const capped = capText('ab😀cd', 3);
    expect(capped.text.startsWith('ab\n')).toBe(true);
    expect(capped.omitted).toBe(4);
  });

  it('caps an output whose JSON is too long into a marked, truncated object', () => {
    const output = { text: 'x'.repeat(100) };
    expect(capOutput(output, 1000)).toBe(output);
    const capped = capOutput(output, 20) as { truncated: boolean; omittedChars: number; text: string };
    expect(capped.truncated).toBe(true);
    expect(capped.omittedChars).toBe(JSON.stringify(output).length - 20);
    expect(capped.text).toContain('truncated');
  });
});
