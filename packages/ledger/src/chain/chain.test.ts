import type { JsonValue } from '@toolgate/core';
import canonicalize from 'canonicalize';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from './canonical.js';
import { ChainVerifier, emptyHead, isFault, lineOf, sealEvent } from './chain.js';
import { genesisHash } from './event.js';

const at = '2026-01-01T00:00:00.000Z';

describe('sealEvent', () => {
  it('hashes prev ‖ canonical(event without hash) and stores the canonical JSON of the whole event', () => {
    const name = fc.string({ minLength: 1, unit: 'grapheme' });
    fc.assert(
      fc.property(name, name, fc.jsonValue(), fc.nat(), (runId, actor, payload, turn) => {
        const draft = { runId, actor, kind: 'tool.called', payload: payload as JsonValue, turn };
        const { event, line } = sealEvent(draft, emptyHead, at);
        const { hash, ...rest } = event;
        expect(hash).toBe(sha256Hex(genesisHash + canonicalize(rest)));
        expect(line).toBe(canonicalize(event));
        const verified = new ChainVerifier().check(line);
        expect(isFault(verified)).toBe(false);
      }),
      { numRuns: 200 },
    );
  });

  it('derives the id from the run and seq when none is given', () => {
    const head = { seq: 7, hash: 'a'.repeat(64) };
    expect(sealEvent({ runId: 'r', actor: 'a', kind: 'run.started' }, head, at).event).toMatchObject({
      id: 'r:7',
      seq: 7,
      prev: 'a'.repeat(64),
      turn: 0,
      payload: {},
      schemaVersion: 1,
    });
  });
});

describe('ChainVerifier', () => {
  function chain(count: number): string[] {
    const lines: string[] = [];
    let head = emptyHead;
    for (let seq = 0; seq < count; seq++) {
      const sealed = sealEvent({ runId: 'r', actor: 'a', kind: 'oracle.spoke', payload: { seq } }, head, at);
      lines.push(sealed.line);
      head = { seq: seq + 1, hash: sealed.event.hash };
    }
    return lines;
  }

  function firstFault(lines: string[]) {
    const verifier = new ChainVerifier();
    for (const line of lines) {
      const result = verifier.check(line);
      if (isFault(result)) return result;
    }
    return undefined;
  }

  it('accepts a sound chain', () => {
    expect(firstFault(chain(5))).toBeUndefined();
  });

  it('names the seq of a deleted record', () => {
    const lines = chain(5);
    lines.splice(2, 1);
    expect(firstFault(lines)).toMatchObject({
      seq: 2,
      reason: expect.stringMatching(/seq is 3, expected 2/),
    });
  });

  it('names the seq of a reordered record', () => {
    const lines = chain(5);
    [lines[1], lines[2]] = [lines[2]!, lines[1]!];
    expect(firstFault(lines)?.seq).toBe(1);
  });

  it('names the seq of an edited record, even when the editor fixed its hash', () => {
    const lines = chain(5);
    const edited = JSON.parse(lines[3]!);
    edited.payload = { seq: 99 };
    const { hash: _hash, ...rest } = edited;
    edited.hash = sha256Hex(edited.prev + canonicalize(rest));
    lines[3] = canonicalize(edited)!;
    expect(firstFault(lines)).toMatchObject({ seq: 4, reason: expect.stringMatching(/prev does not match/) });
    lines[3] = lines[3].replace('"seq":99', '"seq":98');
    expect(firstFault(lines)).toMatchObject({ seq: 3, reason: expect.stringMatching(/hash does not match/) });
  });

  it('names a record that is not canonical JSON although its content is unchanged', () => {
    const lines = chain(3);
    lines[1] = lines[1]!.replace('"actor":"a"', '"actor": "a"');
    expect(firstFault(lines)).toMatchObject({ seq: 1, reason: expect.stringMatching(/canonical/) });
  });

  it('calls a newer schema version a clear LEDGER_UNAVAILABLE', () => {
    const lines = chain(2);
    lines[1] = lines[1]!.replace('"schemaVersion":1', '"schemaVersion":2');
    expect(firstFault(lines)).toMatchObject({
      seq: 1,
      code: 'LEDGER_UNAVAILABLE',
      reason: expect.stringMatching(/schema version 2, newer than 1.*upgrade/),
    });
  });

  it('names a stray field and a bad kind', () => {
    expect(firstFault([chain(1)[0]!.replace('"turn":0', '"turn":0,"zz":1')])?.reason).toMatch(/zz|key/i);
    expect(firstFault([chain(1)[0]!.replace('oracle.spoke', 'Oracle')])?.reason).toMatch(/kind/);
  });
});

describe('a sealed event’s payload', () => {
  it('is what was hashed, however the caller mutates its payload after sealing, and copies carry it', () => {
    const payload: { list: JsonValue[]; note?: string } = { list: [1, { deep: 'a' }], note: 'n' };
    const { event, line } = sealEvent(
      { runId: 'r', actor: 'a', kind: 'tool.called', payload },
      emptyHead,
      at,
    );
    payload.list.push(2);
    (payload.list[1] as { deep: string }).deep = 'b';
    delete payload.note;
    const hashed = { list: [1, { deep: 'a' }], note: 'n' };
    expect(event.payload).toEqual(hashed);
    expect(event.payload).not.toBe(payload);
    expect({ ...event }.payload).toEqual(hashed);
    expect(structuredClone(event).payload).toEqual(hashed);
    expect(JSON.parse(JSON.stringify(event)).payload).toEqual(hashed);
    expect(Object.keys(event)).toContain('payload');
    expect(lineOf(event)).toBe(line);
    expect(new ChainVerifier().check(line)).toMatchObject({ hash: event.hash, payload: hashed });
  });
});
