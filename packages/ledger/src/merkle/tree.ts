import { emptyRoot, nodeHash } from './hash.js';

/**
 * A Merkle tree (RFC 9162) kept incrementally: the roots of its perfect subtrees, largest first
 * (at most one per bit of the size), so appending a leaf and reading the root cost O(log n) and it
 * holds O(log n) hashes whatever the size.
 */
export class MerkleTree {
  #size = 0;
  /** Perfect subtree roots, largest first; their sizes are the set bits of `#size`. */
  readonly #peaks: Uint8Array[] = [];

  /** How many leaves the tree holds. */
  get size(): number {
    return this.#size;
  }

  /** Appends one leaf by its hash ({@link leafHash} of the record). */
  append(leaf: Uint8Array): void {
    let hash = leaf;
    // Merge while the lowest bits of the size are set: each merge closes a perfect subtree.
    for (let size = this.#size; size & 1; size >>= 1) {
      hash = nodeHash(this.#peaks.pop() as Uint8Array, hash);
    }
    this.#peaks.push(hash);
    this.#size += 1;
  }

  /** The root hash of the tree as it stands (the empty root for no leaves). */
  root(): Uint8Array {
    if (this.#peaks.length === 0) return emptyRoot;
    let hash = this.#peaks[this.#peaks.length - 1] as Uint8Array;
    for (let index = this.#peaks.length - 2; index >= 0; index--) {
      hash = nodeHash(this.#peaks[index] as Uint8Array, hash);
    }
    return hash;
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
