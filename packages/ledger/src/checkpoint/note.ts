// Imports node:crypto only: an auditor's checker depends on nothing else of ours.
import { sign, verify } from 'node:crypto';
import { type Checked, type NoteKey, nameProblem } from './keys.js';

/** One signature line of a signed note, parsed (not yet verified). */
export interface NoteSignature {
  readonly name: string;
  readonly keyId: Uint8Array;
  /** What follows the key id: the signature (a cosignature: timestamp ‖ signature). */
  readonly signature: Uint8Array;
  /** The line as it stands, with its newline. */
  readonly line: string;
}

/** A signed note split into its text (ending in a newline) and its signature lines. */
export interface ParsedNote {
  readonly text: string;
  readonly signatures: readonly NoteSignature[];
}

/** A signature a known key made and that verified. */
export interface VerifiedSignature {
  readonly name: string;
  readonly kind: NoteKey['kind'];
  /** A witness's cosignature: when it signed, in POSIX seconds. */
  readonly timestamp?: number;
}

/** The most signature lines a note may carry before it is refused. */
export const maxSignatures = 100;

/** Signs a note text (ending in a newline) with a log key: the C2SP signed-note form. */
export function signNote(text: string, key: NoteKey): string {
  if (key.kind !== 'log')
    throw new RangeError(`key "${key.name}" is a witness key; a log's checkpoint takes a log key`);
  if (!text.endsWith('\n')) throw new RangeError('a note text ends in a newline');
  const signature = sign(null, Buffer.from(text, 'utf8'), key.key);
  return `${text}\n${signatureLine(key, signature)}`;
}

/** A signature line: `— <name> base64(key id ‖ signature)` and a newline. */
export function signatureLine(key: NoteKey, signature: Uint8Array): string {
  return `\u2014 ${key.name} ${Buffer.concat([key.keyId, signature]).toString('base64')}\n`;
}

/** Splits a signed note into text and signature lines, refusing any line the format forbids. */
export function parseNote(note: string): Checked<ParsedNote> {
  if (!note.endsWith('\n')) return refused('a signed note ends in a newline');
  const split = note.lastIndexOf('\n\n');
  if (split < 0) return refused('a signed note has a blank line between its text and its signatures');
  const text = note.slice(0, split + 1);
  if (/[\u0000-\u0009\u000b-\u001f]/.test(note))
    return refused('a signed note holds no control characters but newlines');
  const lines = note.slice(split + 2, -1).split('\n');
  if (lines.length > maxSignatures)
    return refused(`a signed note carries at most ${maxSignatures} signatures`);
  const signatures: NoteSignature[] = [];
  for (const line of lines) {
    const match = /^\u2014 (\S+) (\S+)$/u.exec(line);
    const bytes = match ? Buffer.from(match[2] as string, 'base64') : undefined;
    if (
      !match ||
      !bytes ||
      bytes.toString('base64') !== match[2] ||
      bytes.length < 5 ||
      nameProblem(match[1] as string)
    ) {
      return refused(`the signature line ${JSON.stringify(line)} is not "— <name> <base64>"`);
    }
    signatures.push({
      name: match[1] as string,
      keyId: new Uint8Array(bytes.subarray(0, 4)),
      signature: new Uint8Array(bytes.subarray(4)),
      line: `${line}\n`,
    });
  }
  return { ok: true, value: { text, signatures } };
}

/**
 * Opens a signed note with the keys you trust: every signature by one of them must verify (one that
 * does not makes the note malformed), signatures by other keys are ignored, and at least one must be
 * by a trusted log key. A witness key checks a cosignature (C2SP tlog-cosignature v1).
 */
export function openNote(
  note: string,
  keys: readonly NoteKey[],
): Checked<{ text: string; verified: VerifiedSignature[]; note: ParsedNote }> {
  const parsed = parseNote(note);
  if (!parsed.ok) return parsed;
  const verified: VerifiedSignature[] = [];
  for (const signature of parsed.value.signatures) {
    const key = keys.find(
      (candidate) =>
        candidate.name === signature.name && Buffer.compare(candidate.keyId, signature.keyId) === 0,
    );
    if (!key) continue;
    const result = checkSignature(parsed.value.text, signature, key);
    if (!result.ok) return result;
    verified.push(result.value);
  }
  if (!verified.some((signature) => signature.kind === 'log')) {
    const names = keys.filter((key) => key.kind === 'log').map((key) => key.name);
    return refused(
      names.length === 0
        ? 'no log key given to check the note with'
        : `the note carries no signature by ${names.map((name) => `"${name}"`).join(' or ')}`,
    );
  }
  return { ok: true, value: { text: parsed.value.text, verified, note: parsed.value } };
}

/** The message a witness signs: `cosignature/v1`, `time <t>`, then the checkpoint text. */
export function cosignedMessage(text: string, timestamp: number): string {
  return `cosignature/v1\ntime ${timestamp}\n${text}`;
}

function checkSignature(text: string, signature: NoteSignature, key: NoteKey): Checked<VerifiedSignature> {
  if (key.kind === 'log') {
    return verify(null, Buffer.from(text, 'utf8'), key.key, signature.signature)
      ? { ok: true, value: { name: key.name, kind: 'log' } }
      : refused(`the signature by "${key.name}" does not verify: the note was changed after it was signed`);
  }
  if (signature.signature.length !== 72) return refused(`the cosignature by "${key.name}" is not 72 bytes`);
  const timestamp = Buffer.from(signature.signature).readBigUInt64BE(0);
  if (timestamp > BigInt(Number.MAX_SAFE_INTEGER))
    return refused(`the cosignature by "${key.name}" has a timestamp past 2^53`);
  const message = Buffer.from(cosignedMessage(text, Number(timestamp)), 'utf8');
  return verify(null, message, key.key, signature.signature.subarray(8))
    ? { ok: true, value: { name: key.name, kind: 'witness', timestamp: Number(timestamp) } }
    : refused(
        `the cosignature by "${key.name}" does not verify: the checkpoint was changed after it was cosigned`,
      );
}

function refused(reason: string): { ok: false; reason: string } {
  return { ok: false, reason };
}
