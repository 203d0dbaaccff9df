import * as crypto from 'node:crypto';

// One-shot `crypto.hash` (Node ≥ 20.12) costs a third of a createHash chain on small inputs.
const oneShot = (
  crypto as {
    hash?: (algorithm: string, data: Uint8Array | string, encoding: 'buffer' | 'latin1') => Buffer | string;
  }
).hash;

function sha256(data: Uint8Array): Uint8Array {
  return oneShot
    ? new Uint8Array(oneShot('sha256', data, 'buffer') as Buffer)
    : new Uint8Array(crypto.createHash('sha256').update(data).digest());
}

/**
 * SHA-256 as a binary string (one char a byte, 0–255). A 32-byte Buffer costs more to make and to
 * collect than the hash itself takes; a one-byte string of 32 chars costs neither, so the tree a
 * store keeps while it records holds its hashes this way (see {@link MerkleTree}).
 */
const sha256Binary: (data: Uint8Array | string) => string = oneShot
  ? (data) => oneShot('sha256', data, 'latin1') as string
  : (data) => crypto.createHash('sha256').update(data).digest('binary');

/** The root of an empty tree: SHA-256 of nothing (RFC 9162, section 2.1.1). */
export const emptyRoot: Uint8Array = sha256(new Uint8Array(0));

/** The hash of one leaf: SHA-256(0x00 ‖ data) (RFC 9162, section 2.1.1). */
export function leafHash(data: Uint8Array | string): Uint8Array {
  const bytes =
    typeof data === 'string' ? Buffer.from(`\u0000${data}`, 'utf8') : Buffer.concat([leafPrefix, data]);
  return sha256(bytes);
}

/** The hash of an interior node: SHA-256(0x01 ‖ left ‖ right) (RFC 9162, section 2.1.1). */
export function nodeHash(left: Uint8Array, right: Uint8Array): Uint8Array {
  const bytes = new Uint8Array(1 + left.length + right.length);
  bytes[0] = 1;
  bytes.set(left, 1);
  bytes.set(right, 1 + left.length);
  return sha256(bytes);
}

// The bytes of a leaf hash's input (0x00, then the text's UTF-8), reused: a text that might not fit
// (3 bytes a UTF-16 unit at most) is hashed from a string of its own instead.
const leafInput = Buffer.alloc(16_384);

/** {@link leafHash} of a text (its UTF-8 bytes), as a binary string. */
export function leafHashBinary(text: string): string {
  if (text.length * 3 >= leafInput.length) return sha256Binary(`\u0000${text}`); // a string hashes as its UTF-8
  const written = leafInput.write(text, 1, 'utf8');
  return sha256Binary(leafInput.subarray(0, written + 1));
}

// The bytes of a node hash's input, reused: hashing is synchronous, so no two calls share it.
const nodeInput = Buffer.alloc(65, 1);

/** {@link nodeHash} of two binary-string hashes, as a binary string. */
export function nodeHashBinary(left: string, right: string): string {
  nodeInput.write(left, 1, 32, 'latin1');
  nodeInput.write(right, 33, 32, 'latin1');
  return sha256Binary(nodeInput);
}

/** True when two hashes hold the same bytes. */
export function sameHash(left: Uint8Array, right: Uint8Array): boolean {
  return left.length === right.length && Buffer.compare(left, right) === 0;
}

const leafPrefix = new Uint8Array([0]);
