import { largestPowerOfTwoBelow, rootOf } from './tree.js';

/**
 * The inclusion proof of leaf `index` in the tree of the first `size` leaves (RFC 9162, section
 * 2.1.3.1): the sibling hashes from the leaf up, as {@link verifyInclusion} takes them.
 */
export function inclusionProof(leaves: readonly Uint8Array[], index: number, size: number): Uint8Array[] {
  if (
    !Number.isInteger(index) ||
    !Number.isInteger(size) ||
    index < 0 ||
    index >= size ||
    size > leaves.length
  ) {
    throw new RangeError(`no leaf ${index} in a tree of ${size} leaves (${leaves.length} known)`);
  }
  return path(leaves, index, 0, size);
}

function path(leaves: readonly Uint8Array[], index: number, start: number, end: number): Uint8Array[] {
  if (end - start === 1) return [];
  const split = largestPowerOfTwoBelow(end - start);
  return index < split
    ? [...path(leaves, index, start, start + split), rootOf(leaves, start + split, end)]
    : [...path(leaves, index - split, start + split, end), rootOf(leaves, start, start + split)];
}

/**
 * The consistency proof between the trees of the first `oldSize` and `newSize` leaves (RFC 9162,
 * section 2.1.4.1), as {@link verifyConsistency} takes it. Empty when either size is 0 or both are equal.
 */
export function consistencyProof(
  leaves: readonly Uint8Array[],
  oldSize: number,
  newSize: number,
): Uint8Array[] {
  if (
    !Number.isInteger(oldSize) ||
    !Number.isInteger(newSize) ||
    oldSize < 0 ||
    oldSize > newSize ||
    newSize > leaves.length
  ) {
    throw new RangeError(
      `no consistency proof from ${oldSize} to ${newSize} leaves (${leaves.length} known)`,
    );
  }
  if (oldSize === 0 || oldSize === newSize) return [];
  return subproof(leaves, oldSize, 0, newSize, true);
}

function subproof(
  leaves: readonly Uint8Array[],
  oldSize: number,
  start: number,
  end: number,
  whole: boolean,
): Uint8Array[] {
  const count = end - start;
  if (oldSize === count) return whole ? [] : [rootOf(leaves, start, end)];
  const split = largestPowerOfTwoBelow(count);
  return oldSize <= split
    ? [...subproof(leaves, oldSize, start, start + split, whole), rootOf(leaves, start + split, end)]
    : [...subproof(leaves, oldSize - split, start + split, end, false), rootOf(leaves, start, start + split)];
}
