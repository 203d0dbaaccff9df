import { readFileSync } from 'node:fs';
import canonicalize from 'canonicalize';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { verifyLedgerText } from '../verify/verify.js';
import { serializeCanonical } from './jcs.js';

/** The number with these IEEE-754 bits, as RFC 8785 Appendix B gives them. */
function fromBits(hex: string): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, BigInt(`0x${hex}`));
  return view.getFloat64(0);
}

describe('serializeCanonical against RFC 8785', () => {
  it('writes the example of section 3.2.3 byte for byte', () => {
    const input = JSON.parse(
      '{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],' +
        '"string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/",' +
        '"literals": [null, true, false]}',
    );
    expect(serializeCanonical(input)).toBe(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],' +
        '"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
  });

  it('sorts keys by UTF-16 code units, as section 3.2.3 shows', () => {
    const input = JSON.parse(
      '{"\\u20ac":"Euro Sign","\\r":"Carriage Return","\\ufb33":"Hebrew Letter Dalet With Dagesh",' +
        '"1":"One","\\ud83d\\ude00":"Emoji: Grinning Face","\\u0080":"Control",' +
        '"\\u00f6":"Latin Small Letter O With Diaeresis"}',
    );
    expect(serializeCanonical(input)).toBe(
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis",' +
        '"\u20ac":"Euro Sign","\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
    );
  });

  it.each([
    ['0000000000000000', '0'],
    ['8000000000000000', '0'],
    ['0000000000000001', '5e-324'],
    ['8000000000000001', '-5e-324'],
    ['7fefffffffffffff', '1.7976931348623157e+308'],
    ['ffefffffffffffff', '-1.7976931348623157e+308'],
    ['4340000000000000', '9007199254740992'],
    ['c340000000000000', '-9007199254740992'],
    ['4430000000000000', '295147905179352830000'],
    ['44b52d02c7e14af5', '9.999999999999997e+22'],
    ['44b52d02c7e14af6', '1e+23'],
    ['44b52d02c7e14af7', '1.0000000000000001e+23'],
    ['444b1ae4d6e2ef4e', '999999999999999700000'],
    ['444b1ae4d6e2ef4f', '999999999999999900000'],
    ['444b1ae4d6e2ef50', '1e+21'],
    ['3eb0c6f7a0b5ed8c', '9.999999999999997e-7'],
    ['3eb0c6f7a0b5ed8d', '0.000001'],
    ['41b3de4355555553', '333333333.3333332'],
    ['41b3de4355555554', '333333333.33333325'],
    ['41b3de4355555555', '333333333.3333333'],
    ['41b3de4355555556', '333333333.3333334'],
    ['41b3de4355555557', '333333333.33333343'],
    ['becbf647612f3696', '-0.0000033333333333333333'],
    ['43143ff3c1cb0959', '1424953923781206.2'],
  ])('writes the number with bits %s as %s (Appendix B)', (bits, text) => {
    expect(serializeCanonical(fromBits(bits))).toBe(text);
    expect(serializeCanonical([fromBits(bits)])).toBe(`[${text}]`);
  });

  it.each([
    ['7fffffffffffffff', /NaN is not allowed/],
    ['7ff0000000000000', /Infinity is not allowed/],
    ['fff0000000000000', /-Infinity is not allowed/],
  ])('refuses the number with bits %s, which has no JSON form', (bits, message) => {
    expect(() => serializeCanonical({ n: fromBits(bits) })).toThrow(message);
  });

  it('refuses lone surrogates in values and in keys, and writes pairs as they are', () => {
    expect(() => serializeCanonical({ text: 'a\ud800b' })).toThrow(/at \$\.text: a lone UTF-16 surrogate/);
    expect(() => serializeCanonical({ nested: [{ '\udc00': 1 }] })).toThrow(
      /at \$\.nested\[0\]: .*surrogate/,
    );
    expect(serializeCanonical('😀')).toBe('"😀"');
  });
});

/** Code units that make sorting and escaping interesting: controls, quotes, surrogates (paired and lone), BMP tail. */
const unit = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '\u0000',
      '\u0008',
      '\u001f',
      '"',
      '\\',
      '/',
      '\u007f',
      '\u0080',
      'é',
      'ö',
      '€',
      '\u2028',
      '\ufb33',
      '\uffff',
      '😀',
      '𝄞',
      '\ud83d',
      '\ude00',
      '\ud800',
      '\udfff',
      '1',
      '10',
      '9',
    ),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
);
const text = fc.string({ unit, maxLength: 8 });
const key = fc.oneof(text, fc.nat({ max: 1_000 }).map(String), fc.constant('__proto__'));
const number = fc.oneof(
  fc.double(),
  fc.integer(),
  fc.constantFrom(-0, 1e21, 1e-7, 5e-324, Number.MAX_VALUE, Number.MAX_SAFE_INTEGER + 2, 0.1 + 0.2),
);
const { value } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    number,
    text,
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(key, tie('value'), { maxKeys: 6 }),
  ),
}));

/** The outcome of serialising: the text, or that it threw. */
function outcome(serialize: (value: unknown) => string | undefined, input: unknown): string {
  try {
    return `text ${serialize(input)}`;
  } catch {
    return 'refused';
  }
}

describe('serializeCanonical against the canonicalize package', () => {
  it('writes the same bytes for every generated JSON value, and refuses the same ones', () => {
    fc.assert(
      fc.property(value, (input) => {
        expect(outcome(serializeCanonical, input)).toBe(outcome(canonicalize, input));
      }),
      { numRuns: 3_000 },
    );
  });

  it('agrees on values read back from JSON text, whose integer-like keys iterate first', () => {
    fc.assert(
      fc.property(value, (input) => {
        let parsed: unknown;
        try {
          parsed = JSON.parse(JSON.stringify(input));
        } catch {
          return;
        }
        expect(outcome(serializeCanonical, parsed)).toBe(outcome(canonicalize, parsed));
      }),
      { numRuns: 1_000 },
    );
  });
});

describe('ledgers written before the serialiser changed', () => {
  it('verifies unchanged a ledger written by the canonicalize-based code (tricky keys, numbers, surrogates)', async () => {
    const fixture = new URL('./fixtures/written-before-fast-canonical.ledger.jsonl', import.meta.url);
    const result = await verifyLedgerText(readFileSync(fixture, 'utf8'));
    expect(result).toEqual({
      ok: true,
      count: 13,
      last: { seq: 12, hash: 'bbc047d202167f12e16e350f75650d45d54d98627cbc01fde8f5320b761a504d' },
    });
  });

  it('writes every record of that ledger again byte for byte from its parsed fields', async () => {
    const fixture = new URL('./fixtures/written-before-fast-canonical.ledger.jsonl', import.meta.url);
    const lines = readFileSync(fixture, 'utf8').trimEnd().split('\n');
    for (const line of lines) expect(serializeCanonical(JSON.parse(line))).toBe(line);
  });
});
