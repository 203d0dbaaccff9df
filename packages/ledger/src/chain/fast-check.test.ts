import type { JsonValue } from '@toolgate/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from './canonical.js';
import { type ChainHead, ChainVerifier, emptyHead, isFault, sealEvent } from './chain.js';
import { fastCheckLine } from './fast-check.js';

const at = '2026-01-01T00:00:00.000Z';
const head: ChainHead = { seq: 3, hash: 'ab'.repeat(32) };
const prev = head.hash;

/**
 * A line as an attacker who can write the file would craft it: any text around the hash member, and
 * the hash recomputed the way a verifier computes it, so only the form and the chain can catch it.
 */
function crafted(front: string, back: string, chainHead: ChainHead = head): string {
  return `${front}"hash":"${sha256Hex(chainHead.hash + front + back)}",${back}`;
}

/** The full check's verdict (parse, envelope, canonical form, chain, hash): the hash, or the fault. */
function fullVerdict(line: string, chainHead: ChainHead = head): string {
  const result = new ChainVerifier(chainHead).check(line);
  return isFault(result) ? `fault: ${result.reason}` : result.hash;
}

/** The fast path must never accept what the full check rejects, and agree on what both accept. */
function expectSameVerdict(line: string, chainHead: ChainHead = head): string | undefined {
  const fast = fastCheckLine(line, chainHead);
  const full = fullVerdict(line, chainHead);
  if (fast !== undefined) expect(full).toBe(fast);
  const viaCheckHash = new ChainVerifier(chainHead).checkHash(line);
  expect(isFault(viaCheckHash) ? `fault: ${viaCheckHash.reason}` : viaCheckHash).toBe(full);
  return fast;
}

const good = {
  front: '{"actor":"fortune-teller","at":"2026-01-01T00:00:00.000Z",',
  back:
    `"id":"run:3","kind":"tool.called","payload":{"callId":"c-1","n":0.42,"tool":"oracle"},` +
    `"prev":"${prev}","runId":"run","schemaVersion":1,"seq":3,"turn":0}`,
};
const payloadOf = (payload: string) =>
  good.back.replace('{"callId":"c-1","n":0.42,"tool":"oracle"}', payload);

describe('fastCheckLine', () => {
  it('vouches for a line the ledger wrote, with the same hash as the full check', () => {
    const line = crafted(good.front, good.back);
    expect(fastCheckLine(line, head)).toBe(fullVerdict(line));
    expect(fastCheckLine(line, head)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('vouches for sealed events of generated payloads and names, agreeing with the full check', () => {
    const name = fc.string({ minLength: 1, unit: 'grapheme' });
    fc.assert(
      fc.property(name, name, fc.jsonValue(), fc.nat(), (runId, actor, payload, turn) => {
        const { event, line } = sealEvent(
          { runId, actor, kind: 'tool.called', payload: payload as JsonValue, turn },
          head,
          at,
        );
        const fast = expectSameVerdict(line);
        expect(fullVerdict(line)).toBe(event.hash);
        // Undecided only for what it leaves to the full check: here, escapes in keys or \u escapes.
        if (fast === undefined) expect(line).toContain('\\');
      }),
      { numRuns: 300 },
    );
  });

  // Each crafted line carries a correctly recomputed hash: only the form and the chain can refuse it.
  const craftedLines: [string, string, string][] = [
    ['a duplicate key in the payload', good.front, payloadOf('{"a":1,"a":2}')],
    ['payload keys out of order', good.front, payloadOf('{"b":1,"a":2}')],
    ['a second "prev"', good.front, good.back.replace('"runId"', `"prev":"${'cd'.repeat(32)}","runId"`)],
    ['a second "seq"', good.front, good.back.replace('"turn":0}', '"seq":4,"turn":0}')],
    ['a second "hash" member', good.front, `"hash":"${'0'.repeat(64)}",${good.back}`],
    [
      'the right prev inside a payload string and the wrong one as the member',
      good.front,
      payloadOf(`{"x":"\\",\\"prev\\":\\"${prev}\\""}`).replace(
        `"prev":"${prev}"`,
        `"prev":"${'cd'.repeat(32)}"`,
      ),
    ],
    [
      'the right seq inside the run id and the wrong one as the member',
      good.front,
      good.back
        .replace('"runId":"run"', '"runId":"\\",\\"schemaVersion\\":1,\\"seq\\":3"')
        .replace('"seq":3', '"seq":9'),
    ],
    ['an unescaped quote in a string', good.front, payloadOf('{"a":"x"y"}')],
    ['whitespace between members', '{"actor": "fortune-teller","at":"2026-01-01T00:00:00.000Z",', good.back],
    ['whitespace at the end', good.front, `${good.back} `],
    ['a trailing comma in the payload', good.front, payloadOf('{"a":1,}')],
    ['trailing bytes after the record', good.front, `${good.back}{}`],
    ['a missing closing brace', good.front, good.back.slice(0, -1)],
    ['a number as 1.0', good.front, payloadOf('{"a":1.0}')],
    ['a number as 1e2', good.front, payloadOf('{"a":1e2}')],
    ['a number as -0', good.front, payloadOf('{"a":-0}')],
    ['a number with a leading zero', good.front, payloadOf('{"a":01}')],
    ['a number as 1E+21', good.front, payloadOf('{"a":1E+21}')],
    ['a non-canonical escape \\u0041', good.front, payloadOf('{"a":"\\u0041"}')],
    ['a non-canonical escape \\/', good.front, payloadOf('{"a":"\\/"}')],
    ['an escaped key sorting differently', good.front, payloadOf('{"\\u0062":1,"a":2}')],
    ['a raw control character', good.front, payloadOf('{"a":"x\ty"}')],
    ['a raw lone surrogate', good.front, payloadOf('{"a":"\ud800"}')],
    ['a raw lone surrogate and keys out of order', good.front, payloadOf('{"b":"\ud800","a":1}')],
    ['an escaped lone surrogate and keys out of order', good.front, payloadOf('{"b":"\\ud800","a":1}')],
    ['an empty actor', '{"actor":"","at":"2026-01-01T00:00:00.000Z",', good.back],
    ['a kind that is not dotted lower case', good.front, good.back.replace('tool.called', 'Tool')],
    ['a stray envelope key', good.front, good.back.replace('"runId"', '"rogue":1,"runId"')],
    ['a missing envelope key', good.front, good.back.replace(',"turn":0', '')],
    ['the wrong seq', good.front, good.back.replace('"seq":3', '"seq":4')],
    ['seq written as 3.0', good.front, good.back.replace('"seq":3', '"seq":3.0')],
    ['the wrong prev', good.front, good.back.replace(prev, 'cd'.repeat(32))],
    ['a newer schema version', good.front, good.back.replace('"schemaVersion":1', '"schemaVersion":2')],
    ['a negative turn', good.front, good.back.replace('"turn":0', '"turn":-1')],
    ['a fractional turn', good.front, good.back.replace('"turn":0', '"turn":1.5')],
    ['a turn as a string', good.front, good.back.replace('"turn":0', '"turn":"0"')],
    ['a bare literal misspelt', good.front, payloadOf('{"a":tru}')],
  ];
  for (const [what, front, back] of craftedLines) {
    it(`does not vouch for a line with ${what}, which the full check refuses`, () => {
      const line = crafted(front, back);
      expect(fullVerdict(line)).toMatch(/^fault: /);
      expect(fastCheckLine(line, head)).toBeUndefined();
      expectSameVerdict(line);
    });
  }

  // Valid records that look like forgeries: both checks accept them, with the same hash.
  const trickyButValid: [string, string, string][] = [
    [
      'a "hash" member inside a payload string',
      good.front,
      payloadOf(`{"x":"\\",\\"hash\\":\\"${'0'.repeat(64)}"}`),
    ],
    [
      'escaped quotes that look like members in the actor',
      '{"actor":"a\\",\\"at\\":\\"x","at":"y",',
      good.back,
    ],
    ['a "prev" key in the payload', good.front, payloadOf(`{"prev":"${'cd'.repeat(32)}"}`)],
    ['a turn written as 1e+21', good.front, good.back.replace('"turn":0', '"turn":1e+21')],
  ];
  for (const [what, front, back] of trickyButValid) {
    it(`vouches for a valid line with ${what}, as the full check does, with the same hash`, () => {
      const line = crafted(front, back);
      expect(fullVerdict(line)).toMatch(/^[0-9a-f]{64}$/);
      expect(expectSameVerdict(line)).toBe(fullVerdict(line));
    });
  }

  it('does not vouch for a line whose hash was not recomputed after an edit', () => {
    const line = crafted(good.front, good.back).replace('"n":0.42', '"n":0.43');
    expect(fastCheckLine(line, head)).toBeUndefined();
    expect(fullVerdict(line)).toMatch(/^fault: its hash does not match/);
  });

  it('does not vouch for a hash written in upper case', () => {
    const line = crafted(good.front, good.back);
    const upper = line.replace(
      /"hash":"([0-9a-f]{64})"/,
      (_, hash: string) => `"hash":"${hash.toUpperCase()}"`,
    );
    expect(fastCheckLine(upper, head)).toBeUndefined();
    expectSameVerdict(upper);
  });

  it('leaves deep nesting, \\u escapes and a lone surrogate escape to the full check, which decides', () => {
    const deep = `${'['.repeat(100)}${']'.repeat(100)}`;
    for (const payload of [deep, '{"a":"\\u0007"}', '{"a":"\\ud800"}', '{"1":0,"10":1,"2":2}']) {
      const line = crafted(good.front, payloadOf(payload));
      expectSameVerdict(line);
    }
    expect(fastCheckLine(crafted(good.front, payloadOf(deep)), head)).toBeUndefined();
  });

  it('agrees with the full check on any one-character edit of a good line, hash recomputed', () => {
    const alphabet = fc.constantFrom(...'{}[]",:\\ 0123456789-+.eEabtrufnl\u00e9\ud83d\ude00'.split(''));
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.nat(),
        alphabet,
        fc.constantFrom('replace', 'insert', 'delete'),
        (inFront, position, character, edit) => {
          const part = inFront ? good.front : good.back;
          const index = position % part.length;
          const edited =
            edit === 'replace'
              ? part.slice(0, index) + character + part.slice(index + 1)
              : edit === 'insert'
                ? part.slice(0, index) + character + part.slice(index)
                : part.slice(0, index) + part.slice(index + 1);
          const line = inFront ? crafted(edited, good.back) : crafted(good.front, edited);
          expectSameVerdict(line);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('decides megabyte strings, plain or full of escapes, as the full check does (no stack overflow)', () => {
    for (const text of ['x'.repeat(8 << 20), '\\n'.repeat(2 << 20), 'é\\"'.repeat(1 << 20)]) {
      const line = crafted(good.front, payloadOf(`{"text":"${text}"}`));
      expect(expectSameVerdict(line) ?? fullVerdict(line)).toMatch(/^[0-9a-f]{64}$/);
    }
  }, 60_000);

  it('checks the first record against the genesis head', () => {
    const { line, event } = sealEvent({ runId: 'r', actor: 'a', kind: 'run.started' }, emptyHead, at);
    expect(fastCheckLine(line, emptyHead)).toBe(event.hash);
    expect(fastCheckLine(line, { seq: 0, hash: 'ab'.repeat(32) })).toBeUndefined();
    expect(fastCheckLine(line, { seq: 1, hash: emptyHead.hash })).toBeUndefined();
  });
});
