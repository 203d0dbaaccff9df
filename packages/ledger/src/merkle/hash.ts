import * as crypto from 'node:crypto';

// One-shot `crypto.hash` (Node ≥ 20.12) costs a third of a createHash chain on small inputs.
const oneShot = (crypto as { hash?: (algorithm: string, data: Uint8Array, encoding: 'buffer') => Buffer })
  .hash;

function sha256(data: Uint8Array): Uint8Array {
  return oneShot
    ? new Uint8Array(oneShot('sha256', data, 'buffer'))
    : new Uint8Array(crypto.createHash('sha256').update(data).digest());
}

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

/** True when two hashes hold the same bytes. */
export function sameHash(left: Uint8Array, right: Uint8Array): boolean {
  return left.length === right.length && Buffer.compare(left, right) === 0;
}

const leafPrefix = new Uint8Array([0]);
