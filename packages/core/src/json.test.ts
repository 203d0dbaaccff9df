import { describe, expect, it } from 'vitest';
import { capJsonText, capOutput, capText, jsonTextLength, toJsonValue } from './json.js';

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
    const output = { text: 'x'.repeat(1000) };
    expect(capOutput(output, 2000)).toBe(output);
    const capped = capOutput(output, 200) as Capped;
    expect(capped.truncated).toBe(true);
    expect(JSON.stringify(capped).length).toBeLessThanOrEqual(200);
    const kept = capped.text.slice(0, capped.text.indexOf('\n[… truncated'));
    expect(JSON.stringify(output).startsWith(kept)).toBe(true);
    expect(capped.omittedChars).toBe(JSON.stringify(output).length - kept.length);
    expect(capped.text.endsWith(`[… truncated: ${capped.omittedChars} more characters not shown]`)).toBe(
      true,
    );
  });
});

type Capped = { truncated: true; omittedChars: number; text: string };

describe('caps measured on what is returned', () => {
  it('holds a string of quotes to the cap, escaping included (not 2× it)', () => {
    const capped = capOutput('"'.repeat(300_000), 100_000) as Capped;
    const returned = JSON.stringify(capped).length;
    expect(returned).toBeLessThanOrEqual(100_000);
    expect(returned).toBeGreaterThan(99_800); // and uses the room it has
  });

  it('holds every mix of escapes, pairs and lone surrogates to the cap', () => {
    const alphabet = ['a', '"', '\\', '\n', '\u0001', '😀', '\ud800', '\udc00', 'é', '…'];
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let trial = 0; trial < 200; trial++) {
      const length = Math.floor(random() * 3000);
      let text = '';
      for (let index = 0; index < length; index++) text += alphabet[Math.floor(random() * alphabet.length)];
      const max = 120 + Math.floor(random() * 2000);
      const output = trial % 2 ? text : { text, nested: [text.slice(0, 50)] };
      const capped = capOutput(output, max);
      expect(JSON.stringify(capped).length, `trial ${trial}`).toBeLessThanOrEqual(max);
      if (capped !== output) {
        const { text: cut, omittedChars } = capped as Capped;
        const kept = cut.slice(0, cut.lastIndexOf('\n[… truncated'));
        expect(JSON.stringify(output).startsWith(kept), `trial ${trial}`).toBe(true);
        expect(omittedChars).toBe(JSON.stringify(output).length - kept.length);
      }
      const field = capJsonText(text, max);
      const kept = field.truncated
        ? field.text.slice(0, field.text.lastIndexOf('\n[… truncated'))
        : field.text;
      expect(JSON.stringify(kept).length - 2, `trial ${trial}`).toBeLessThanOrEqual(max);
      expect(jsonTextLength(kept)).toBe(JSON.stringify(kept).length - 2);
    }
  });

  it('cuts an output that was already capped further instead of wrapping it again', () => {
    const original = { text: '"quoted" '.repeat(2000) };
    const first = capOutput(original, 5000) as Capped;
    expect(capOutput(first, 5000)).toBe(first); // it fits: left alone
    const second = capOutput(first, 1000) as Capped;
    expect(JSON.stringify(second).length).toBeLessThanOrEqual(1000);
    expect(Object.keys(second).sort()).toEqual(['omittedChars', 'text', 'truncated']);
    expect(second.text.startsWith('{"text":"\\"quoted')).toBe(true); // the output's own JSON, not a wrapper's
    expect(second.text.match(/\[… truncated/g)).toHaveLength(1);
    const kept = second.text.slice(0, second.text.indexOf('\n[… truncated'));
    expect(second.omittedChars).toBe(JSON.stringify(original).length - kept.length);
  });

  it('caps a text field by its escaped length and never splits a surrogate pair', () => {
    expect(capJsonText('"'.repeat(10), 10)).toEqual({
      text: `${'"'.repeat(5)}\n[… truncated: 5 more characters not shown]`,
      truncated: true,
      omitted: 5,
    });
    expect(capJsonText('ab😀cd', 3).text.startsWith('ab\n')).toBe(true);
    expect(capJsonText('plain', 5)).toEqual({ text: 'plain', truncated: false, omitted: 0 });
  });
});
