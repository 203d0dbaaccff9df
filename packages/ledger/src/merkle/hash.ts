import { createHash } from 'node:crypto';

/** The root of an empty tree: SHA-256 of nothing (RFC 9162, section 2.1.1). */
export const emptyRoot: Uint8Array = new Uint8Array(createHash('sha256').digest());

/** The hash of one leaf: SHA-256(0x00 ‖ data) (RFC 9162, section 2.1.1). */
export function leafHash(data: Uint8Array | string): Uint8Array {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  return new Uint8Array(createHash('sha256').update(leafPrefix).update(bytes).digest());
}

/** The hash of an interior node: SHA-256(0x01 ‖ left ‖ right) (RFC 9162, section 2.1.1). */
export function nodeHash(left: Uint8Array, right: Uint8Array): Uint8Array {
  return new Uint8Array(createHash('sha256').update(nodePrefix).update(left).update(right).digest());
}

/** True when two hashes hold the same bytes. */
export function sameHash(left: Uint8Array, right: Uint8Array): boolean {
  return left.length === right.length && Buffer.compare(left, right) === 0;
}

const leafPrefix = new Uint8Array([0]);
const nodePrefix = new Uint8Array([1]);
