// Imports node:crypto only: an auditor's checker depends on nothing else of ours.
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
} from 'node:crypto';

/** What a key signs: a log's checkpoints (signed-note type 0x01) or a witness's cosignatures (0x04). */
export type KeyKind = 'log' | 'witness';

/** A signer key and the verifier key that checks its signatures, both as C2SP signed-note text. */
export interface NoteKeyPair {
  /** `PRIVATE+KEY+<name>+<key id>+<base64(type ‖ seed)>`: keep it secret. */
  readonly signerKey: string;
  /** `<name>+<key id>+<base64(type ‖ public key)>`: publish it. */
  readonly verifierKey: string;
}

/** A parsed key: its name, 4-byte id, kind, and the Ed25519 key object. */
export interface NoteKey {
  readonly name: string;
  readonly keyId: Uint8Array;
  readonly kind: KeyKind;
  readonly key: KeyObject;
}

/** The outcome of reading untrusted text: the value, or why not (for people). */
export type Checked<Value> =
  | { readonly ok: true; readonly value: Value }
  | { readonly ok: false; readonly reason: string };

const typeByte: Record<KeyKind, number> = { log: 0x01, witness: 0x04 };
const pkcs8Prefix = Buffer.from('302e020100300506032b657004220420', 'hex');
const spkiPrefix = Buffer.from('302a300506032b6570032100', 'hex');

/** A new Ed25519 key pair named `name` (a schema-less URL such as `example.com/agents`). */
export function generateNoteKeys(name: string, kind: KeyKind = 'log'): NoteKeyPair {
  const problem = nameProblem(name);
  if (problem) throw new RangeError(problem);
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const seed = privateKey.export({ format: 'der', type: 'pkcs8' }).subarray(pkcs8Prefix.length);
  const raw = rawPublicKey(publicKey);
  const id = Buffer.from(keyIdOf(name, kind, raw)).toString('hex');
  const type = typeByte[kind];
  return {
    signerKey: `PRIVATE+KEY+${name}+${id}+${Buffer.concat([Buffer.from([type]), seed]).toString('base64')}`,
    verifierKey: `${name}+${id}+${Buffer.concat([Buffer.from([type]), raw]).toString('base64')}`,
  };
}

/** Reads a signer key (`PRIVATE+KEY+…`). */
export function parseSignerKey(text: string): Checked<NoteKey> {
  const parts = splitKey(text, 4);
  if (parts.length !== 5 || parts[0] !== 'PRIVATE' || parts[1] !== 'KEY') {
    return refused(
      'a signer key reads PRIVATE+KEY+<name>+<key id>+<key>, as `toolgate-ledger keygen` writes it',
    );
  }
  const decoded = decodeKey(parts[2] as string, parts[3] as string, parts[4] as string);
  if (!decoded.ok) return decoded;
  const { name, kind, material, keyId } = decoded.value;
  const key = createPrivateKey({ key: Buffer.concat([pkcs8Prefix, material]), format: 'der', type: 'pkcs8' });
  const expected = keyIdOf(name, kind, rawPublicKey(createPublicKey(key)));
  if (Buffer.compare(expected, keyId) !== 0)
    return refused(`the key id of signer key "${name}" does not match its key`);
  return { ok: true, value: { name, keyId, kind, key } };
}

/** Reads a verifier key (`<name>+<key id>+<key>`). */
export function parseVerifierKey(text: string): Checked<NoteKey> {
  const parts = splitKey(text, 2);
  if (parts.length !== 3) {
    return refused('a verifier key reads <name>+<key id>+<key>, as `toolgate-ledger keygen` writes it');
  }
  const decoded = decodeKey(parts[0] as string, parts[1] as string, parts[2] as string);
  if (!decoded.ok) return decoded;
  const { name, kind, material, keyId } = decoded.value;
  if (Buffer.compare(keyIdOf(name, kind, material), keyId) !== 0) {
    return refused(`the key id of verifier key "${name}" does not match its key`);
  }
  const key = createPublicKey({ key: Buffer.concat([spkiPrefix, material]), format: 'der', type: 'spki' });
  return { ok: true, value: { name, keyId, kind, key } };
}

/** Why a key name is not one a signed note allows, or undefined. */
export function nameProblem(name: string): string | undefined {
  if (name.length === 0) return 'a key name must not be empty';
  if (/[\s+]/u.test(name))
    return `the key name "${name}" holds a space or a plus sign, which a signed note forbids`;
  return undefined;
}

/** The key id: SHA-256(name ‖ 0x0A ‖ type ‖ public key)[:4] (C2SP signed-note, tlog-cosignature). */
export function keyIdOf(name: string, kind: KeyKind, publicKey: Uint8Array): Uint8Array {
  const hash = createHash('sha256')
    .update(`${name}\n`, 'utf8')
    .update(Buffer.from([typeByte[kind]]))
    .update(publicKey)
    .digest();
  return new Uint8Array(hash.subarray(0, 4));
}

function decodeKey(
  name: string,
  idHex: string,
  base64: string,
): Checked<{ name: string; kind: KeyKind; material: Buffer; keyId: Uint8Array }> {
  const problem = nameProblem(name);
  if (problem) return refused(problem);
  if (!/^[0-9a-f]{8}$/.test(idHex))
    return refused(`the key id "${idHex}" of key "${name}" is not 8 hex digits`);
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.toString('base64') !== base64 || bytes.length !== 33) {
    return refused(`key "${name}" does not hold a type byte and a 32-byte Ed25519 key in base64`);
  }
  const kind = bytes[0] === 0x01 ? 'log' : bytes[0] === 0x04 ? 'witness' : undefined;
  if (!kind)
    return refused(
      `key "${name}" is of signature type ${bytes[0]}; toolgate knows Ed25519 (1) and Ed25519 cosignatures (4)`,
    );
  return {
    ok: true,
    value: { name, kind, material: bytes.subarray(1), keyId: new Uint8Array(Buffer.from(idHex, 'hex')) },
  };
}

/** Splits at the first `plusses` plus signs: the key material in base64 may hold more. */
function splitKey(text: string, plusses: number): string[] {
  const parts: string[] = [];
  let rest = text.trim();
  for (let index = 0; index < plusses; index++) {
    const at = rest.indexOf('+');
    if (at < 0) break;
    parts.push(rest.slice(0, at));
    rest = rest.slice(at + 1);
  }
  parts.push(rest);
  return parts;
}

function rawPublicKey(key: KeyObject): Buffer {
  return key.export({ format: 'der', type: 'spki' }).subarray(spkiPrefix.length);
}

function refused(reason: string): { ok: false; reason: string } {
  return { ok: false, reason };
}
