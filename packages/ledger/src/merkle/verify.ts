// Imports node:crypto only (through hash.ts): an auditor's checker depends on nothing else of ours.
import { nodeHash, sameHash } from './hash.js';

/** The outcome of checking a proof: ok, or why not (for people; no code parses it). */
export type ProofResult = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/** What {@link verifyInclusion} checks: one leaf, where it stands, the proof and the root it claims. */
export interface InclusionClaim {
  /** The leaf's hash ({@link leafHash} of the record's bytes). */
  readonly leaf: Uint8Array;
  /** Its 0-based index (a ledger record's seq). */
  readonly index: number;
  /** The size of the tree the root is of. */
  readonly size: number;
  readonly proof: readonly Uint8Array[];
  readonly root: Uint8Array;
}

/** Checks an inclusion proof (RFC 9162, section 2.1.3.2). */
export function verifyInclusion(claim: InclusionClaim): ProofResult {
  const { leaf, index, size, proof, root } = claim;
  if (!isCount(index) || !isCount(size) || index >= size) {
    return refused(`leaf ${index} cannot stand in a tree of ${size} leaves`);
  }
  if (leaf.length !== hashBytes) return refused(`a leaf hash is ${hashBytes} bytes, not ${leaf.length}`);
  let fn = index;
  let sn = size - 1;
  let hash = leaf;
  for (const sibling of proof) {
    if (sn === 0) return refused('the proof has more hashes than a tree of that size needs');
    if (fn % 2 === 1 || fn === sn) {
      hash = nodeHash(sibling, hash);
      while (fn % 2 === 0 && fn !== 0) {
        fn = half(fn);
        sn = half(sn);
      }
    } else {
      hash = nodeHash(hash, sibling);
    }
    fn = half(fn);
    sn = half(sn);
  }
  if (sn !== 0) return refused('the proof has fewer hashes than a tree of that size needs');
  return sameHash(hash, root)
    ? { ok: true }
    : refused(`the proof does not lead from leaf ${index} to the root of the tree of ${size} leaves`);
}

/** What {@link verifyConsistency} checks: that the tree of `newSize` leaves extends the one of `oldSize`. */
export interface ConsistencyClaim {
  readonly oldSize: number;
  readonly oldRoot: Uint8Array;
  readonly newSize: number;
  readonly newRoot: Uint8Array;
  readonly proof: readonly Uint8Array[];
}

/** Checks a consistency proof (RFC 9162, section 2.1.4.2). */
export function verifyConsistency(claim: ConsistencyClaim): ProofResult {
  const { oldSize, oldRoot, newSize, newRoot, proof } = claim;
  if (!isCount(oldSize) || !isCount(newSize) || newSize < oldSize) {
    return refused(`a tree of ${newSize} leaves cannot extend one of ${oldSize}: it would have lost leaves`);
  }
  if (oldSize === 0) {
    return refused('nothing to prove from an empty tree: every tree extends it (check the new root alone)');
  }
  if (oldSize === newSize) {
    if (proof.length > 0) return refused('two trees of one size need an empty proof');
    return sameHash(oldRoot, newRoot)
      ? { ok: true }
      : refused(`two trees of ${oldSize} leaves have different roots`);
  }
  if (proof.length === 0) return refused('the proof is empty');
  const path = isPowerOfTwo(oldSize) ? [oldRoot, ...proof] : [...proof];
  let fn = oldSize - 1;
  let sn = newSize - 1;
  while (fn % 2 === 1) {
    fn = half(fn);
    sn = half(sn);
  }
  let oldHash = path[0] as Uint8Array;
  let newHash = oldHash;
  for (const hash of path.slice(1)) {
    if (sn === 0) return refused('the proof has more hashes than the two sizes need');
    if (fn % 2 === 1 || fn === sn) {
      oldHash = nodeHash(hash, oldHash);
      newHash = nodeHash(hash, newHash);
      while (fn % 2 === 0 && fn !== 0) {
        fn = half(fn);
        sn = half(sn);
      }
    } else {
      newHash = nodeHash(newHash, hash);
    }
    fn = half(fn);
    sn = half(sn);
  }
  if (sn !== 0) return refused('the proof has fewer hashes than the two sizes need');
  if (!sameHash(oldHash, oldRoot)) {
    return refused(`the proof does not lead to the root of the older tree of ${oldSize} leaves`);
  }
  if (!sameHash(newHash, newRoot)) {
    return refused(`the tree of ${newSize} leaves does not extend the tree of ${oldSize}: its root differs`);
  }
  return { ok: true };
}

const hashBytes = 32;

function half(value: number): number {
  return Math.floor(value / 2);
}

function isCount(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 0;
}

function isPowerOfTwo(value: number): boolean {
  let rest = value;
  while (rest > 1 && rest % 2 === 0) rest /= 2;
  return rest === 1;
}

function refused(reason: string): ProofResult {
  return { ok: false, reason };
}
