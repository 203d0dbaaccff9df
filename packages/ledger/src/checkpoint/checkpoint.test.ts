import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { leafHash } from '../merkle/index.js';
import {
  cosignatureLine,
  formatCheckpoint,
  generateNoteKeys,
  type NoteKey,
  openNote,
  parseCheckpoint,
  parseSignerKey,
  parseVerifierKey,
  signNote,
} from './index.js';

// Known answers of Go's golang.org/x/mod/sumdb (the reference of C2SP signed notes), checked in.
const go = JSON.parse(readFileSync(new URL('./fixtures/go-sumdb-note.json', import.meta.url), 'utf8')) as {
  verifierKey: string;
  signerKey: string;
  text: string;
  signedNote: string;
  tree: { size: number; recordText: string; body: string };
};

function value<Value>(checked: { ok: true; value: Value } | { ok: false; reason: string }): Value {
  if (!checked.ok) throw new Error(checked.reason);
  return checked.value;
}

describe('signed notes and checkpoints (C2SP)', () => {
  it('signs the reference note byte for byte and opens it with the reference verifier key', () => {
    const signer = value(parseSignerKey(go.signerKey));
    expect(signNote(go.text, signer)).toBe(go.signedNote);
    const verifier = value(parseVerifierKey(go.verifierKey));
    const opened = value(openNote(go.signedNote, [verifier]));
    expect(opened.text).toBe(go.text);
    expect(opened.verified).toEqual([{ name: 'PeterNeumann', kind: 'log' }]);
  });

  it('refuses the reference note with one letter changed, and a note signed by no trusted key', () => {
    const verifier = value(parseVerifierKey(go.verifierKey));
    const changed = openNote(go.signedNote.replace('cryptography', 'cryptographY'), [verifier]);
    expect(changed).toMatchObject({ ok: false, reason: expect.stringContaining('does not verify') });
    const other = value(parseVerifierKey(generateNoteKeys('example.com/other').verifierKey));
    expect(openNote(go.signedNote, [other])).toMatchObject({
      ok: false,
      reason: 'the note carries no signature by "example.com/other"',
    });
  });

  it('formats the reference tree head and reads it back', () => {
    const checkpoint = {
      origin: 'go.sum database tree',
      size: go.tree.size,
      root: leafHash(go.tree.recordText),
      extensions: [],
    };
    expect(formatCheckpoint(checkpoint)).toBe(go.tree.body);
    expect(value(parseCheckpoint(go.tree.body))).toEqual(checkpoint);
  });

  it('refuses checkpoints the format forbids, naming the line', () => {
    expect(parseCheckpoint('example.com/log\n12\n')).toMatchObject({
      ok: false,
      reason: expect.stringContaining('three lines'),
    });
    expect(
      parseCheckpoint('example.com/log\n012\nTszzRgjTG6xce+z2AG31kAXYKBgQVtCSCE40HmuwBb0=\n'),
    ).toMatchObject({
      ok: false,
      reason: 'the checkpoint tree size "012" is not a decimal number',
    });
    expect(
      parseCheckpoint('example.com/log\n0\nTszzRgjTG6xce+z2AG31kAXYKBgQVtCSCE40HmuwBb0=\n'),
    ).toMatchObject({
      ok: false,
      reason: 'a checkpoint of size 0 must have the root of the empty tree',
    });
  });

  it('checks a witness cosignature over the checkpoint, and refuses it on a changed checkpoint', () => {
    const log = generateNoteKeys('example.com/agents');
    const witness = generateNoteKeys('witness.example.com/w1', 'witness');
    const logSigner = value(parseSignerKey(log.signerKey));
    const witnessSigner = value(parseSignerKey(witness.signerKey));
    const body = formatCheckpoint({
      origin: 'example.com/agents',
      size: 3,
      root: leafHash('x'),
      extensions: [],
    });
    const note = signNote(body, logSigner) + cosignatureLine(body, witnessSigner, 1_790_000_000);
    const keys: NoteKey[] = [
      value(parseVerifierKey(log.verifierKey)),
      value(parseVerifierKey(witness.verifierKey)),
    ];
    expect(value(openNote(note, keys)).verified).toEqual([
      { name: 'example.com/agents', kind: 'log' },
      { name: 'witness.example.com/w1', kind: 'witness', timestamp: 1_790_000_000 },
    ]);
    // The log re-signs a different root under the same size: the witness's line no longer verifies.
    const forged = body.replace(/\n[^\n]+\n$/, `\n${Buffer.from(leafHash('y')).toString('base64')}\n`);
    const reused = signNote(forged, logSigner) + cosignatureLine(body, witnessSigner, 1_790_000_000);
    expect(openNote(reused, keys)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('cosignature'),
    });
  });

  it('refuses a key whose id does not match it, and a witness key where a log key signs', () => {
    const pair = generateNoteKeys('example.com/agents');
    const wrongId = pair.verifierKey.replace(
      /\+([0-9a-f]{8})\+/,
      (_all, id: string) => `+${id === '00000000' ? '00000001' : '00000000'}+`,
    );
    expect(parseVerifierKey(wrongId)).toMatchObject({ ok: false, reason: expect.stringContaining('key id') });
    const witness = value(parseSignerKey(generateNoteKeys('w.example', 'witness').signerKey));
    expect(() => signNote('a\n', witness)).toThrow(/witness key/);
  });
});
