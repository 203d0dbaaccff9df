import { describe, expect, it } from 'vitest';
import { canonicalJson, canonicalText, sha256Hex } from './canonical.js';

describe('canonicalJson', () => {
  it('sorts keys and drops whitespace, as RFC 8785 says', () => {
    expect(canonicalJson({ b: 1, a: [true, null, { d: 'x', c: 1e21 }] })).toBe(
      '{"a":[true,null,{"c":1e+21,"d":"x"}],"b":1}',
    );
  });

  it.each([
    ['a function', { run: () => 1 }, /at \$\.run: a function/],
    ['a symbol', [Symbol('x')], /at \$\[0\]: a symbol/],
    ['a Map', { map: new Map() }, /a Map has no JSON form/],
    ['NaN', { n: Number.NaN }, /NaN/],
    ['a bigint', { n: 1n }, /BigInt/i],
    ['undefined', undefined, /undefined/],
  ])('refuses %s with a message naming where', (_what, value, message) => {
    expect(() => canonicalJson(value, 'the payload')).toThrow(message);
    expect(() => canonicalJson(value, 'the payload')).toThrow(/the payload is not JSON/);
  });

  it('refuses a cycle', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => canonicalJson(cyclic)).toThrow(/Circular/);
  });
});

describe('canonicalText', () => {
  it('agrees with the canonicaliser, also for integer-like keys that iterate out of order', () => {
    for (const value of [
      { b: 1, a: { z: [1, 'é'] } },
      { '10': 'x', '9': 'y', a: 1 },
    ]) {
      const parsed = JSON.parse(canonicalJson(value));
      expect(canonicalText(parsed)).toBe(canonicalJson(value));
    }
  });
});

describe('sha256Hex', () => {
  it('hashes UTF-8 text to 64 hex digits', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
