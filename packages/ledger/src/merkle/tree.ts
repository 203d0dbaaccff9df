import { emptyRoot, leafHashBinary, nodeHash, nodeHashBinary } from './hash.js';

/**
 * A Merkle tree (RFC 9162) kept incrementally: the roots of its perfect subtrees, largest first
 * (at most one per bit of the size), so appending a leaf and reading the root cost O(log n) and it
 * holds O(log n) hashes whatever the size. It keeps them as binary strings (one char a byte): an
 * append allocates no Buffer, which costs more than the SHA-256 itself.
 */
export class MerkleTree {
  #size = 0;
  /** Perfect subtree roots, largest first; their sizes are the set bits of `#size`. */
  readonly #peaks: string[] = [];

  /** How many leaves the tree holds. */
  get size(): number {
    return this.#size;
  }

  /** Appends one leaf by its hash ({@link leafHash} of the record). */
  append(leaf: Uint8Array): void {
    if (leaf.length !== 32) throw new RangeError(`a leaf hash has 32 bytes, not ${leaf.length}`);
    this.#push(Buffer.from(leaf.buffer, leaf.byteOffset, 32).toString('latin1'));
  }

  /** Appends the leaf of a text: the same as `append(leafHash(text))`, without the copies. */
  appendText(text: string): void {
    this.#push(leafHashBinary(text));
  }

  /** The root hash of the tree as it stands (the empty root for no leaves). */
  root(): Uint8Array {
    const peaks = this.#peaks;
    if (peaks.length === 0) return emptyRoot;
    let hash = peaks[peaks.length - 1]!;
    for (let index = peaks.length - 2; index >= 0; index--) hash = nodeHashBinary(peaks[index]!, hash);
    return new Uint8Array(Buffer.from(hash, 'latin1'));
  }

  #push(leaf: string): void {
    let hash = leaf;
    // Merge while the lowest bits of the size are set: each merge closes a perfect subtree.
    for (let size = this.#size; size & 1; size >>= 1) hash = nodeHashBinary(this.#peaks.pop()!, hash);
    this.#peaks.push(hash);
    this.#size += 1;
  }
}

/** The root of the leaves `[start, end)` of a list of leaf hashes (RFC 9162's MTH). */
export function rootOf(leaves: readonly Uint8Array[], start = 0, end = leaves.length): Uint8Array {
  const count = end - start;
  if (count === 0) return emptyRoot;
  if (count === 1) return leaves[start] as Uint8Array;
  const split = largestPowerOfTwoBelow(count);
  return nodeHash(rootOf(leaves, start, start + split), rootOf(leaves, start + split, end));
}

/** The largest power of two strictly less than `count` (count ≥ 2). */
export function largestPowerOfTwoBelow(count: number): number {
  let power = 1;
  while (power * 2 < count) power *= 2;
  return power;
}
