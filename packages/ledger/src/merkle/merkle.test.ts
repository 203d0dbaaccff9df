import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  consistencyProof,
  emptyRoot,
  inclusionProof,
  leafHash,
  MerkleTree,
  rootOf,
  verifyConsistency,
  verifyInclusion,
} from './index.js';

interface InclusionVector {
  file: string;
  leafIdx: number;
  treeSize: number;
  root: string | null;
  leafHash: string | null;
  proof: string[] | null;
  wantErr: boolean;
}
interface ConsistencyVector {
  file: string;
  size1: number;
  size2: number;
  root1: string | null;
  root2: string | null;
  proof: string[] | null;
  wantErr: boolean;
}

// The known answers of transparency-dev/merkle (the Go reference of RFC 6962/9162 hashing), checked in.
const vectors = JSON.parse(
  readFileSync(new URL('./fixtures/transparency-dev-vectors.json', import.meta.url), 'utf8'),
) as {
  leafInputs: string[];
  roots: string[];
  inclusion: InclusionVector[];
  consistency: ConsistencyVector[];
};

const bytes = (base64: string | null) => new Uint8Array(Buffer.from(base64 ?? '', 'base64'));
const hex = (hash: Uint8Array) => Buffer.from(hash).toString('hex');
const leaves = vectors.leafInputs.map((input) => leafHash(Buffer.from(input, 'hex')));

describe('the Merkle tree (RFC 9162)', () => {
  it('gives the reference root for every size from 0 to 8, incrementally and from the leaves', () => {
    const tree = new MerkleTree();
    expect(hex(tree.root())).toBe(vectors.roots[0]);
    expect(hex(emptyRoot)).toBe(vectors.roots[0]);
    leaves.forEach((leaf, index) => {
      tree.append(leaf);
      expect(tree.size).toBe(index + 1);
      expect(hex(tree.root())).toBe(vectors.roots[index + 1]);
      expect(hex(rootOf(leaves, 0, index + 1))).toBe(vectors.roots[index + 1]);
    });
  });

  it('appends the leaf of a text as append(leafHash(text)) does: short, non-ASCII and past its buffer', () => {
    const texts = ['', 'a', '{"é":"𝄞"}', 'x'.repeat(5_461), 'ü'.repeat(6_000), `${'y'.repeat(20_000)}é`];
    const byText = new MerkleTree();
    const byHash = new MerkleTree();
    for (const text of texts) {
      byText.appendText(text);
      byHash.append(leafHash(text));
      expect(hex(byText.root())).toBe(hex(byHash.root()));
    }
    expect(hex(byText.root())).toBe(hex(rootOf(texts.map((text) => leafHash(text)))));
  });

  it.each(vectors.inclusion.map((vector) => [vector.file, vector] as const))(
    'checks the reference inclusion vector %s as the reference does',
    (_file, vector) => {
      const result = verifyInclusion({
        leaf: bytes(vector.leafHash),
        index: vector.leafIdx,
        size: vector.treeSize,
        proof: (vector.proof ?? []).map(bytes),
        root: bytes(vector.root),
      });
      expect(result.ok).toBe(!vector.wantErr);
    },
  );

  it.each(vectors.consistency.map((vector) => [vector.file, vector] as const))(
    'checks the reference consistency vector %s as the reference does',
    (_file, vector) => {
      const result = verifyConsistency({
        oldSize: vector.size1,
        oldRoot: bytes(vector.root1),
        newSize: vector.size2,
        newRoot: bytes(vector.root2),
        proof: (vector.proof ?? []).map(bytes),
      });
      expect(result.ok).toBe(!vector.wantErr);
    },
  );

  it('generates the very proofs of the reference happy paths', () => {
    const happy = vectors.inclusion.filter((vector) => vector.file.endsWith('happy-path.json'));
    expect(happy.length).toBeGreaterThan(0);
    for (const vector of happy) {
      const proof = inclusionProof(leaves, vector.leafIdx, vector.treeSize);
      expect(proof.map((hash) => Buffer.from(hash).toString('base64'))).toEqual(vector.proof ?? []);
    }
    const consistent = vectors.consistency.filter((vector) => vector.file.endsWith('happy-path.json'));
    for (const vector of consistent) {
      const proof = consistencyProof(leaves, vector.size1, vector.size2);
      expect(proof.map((hash) => Buffer.from(hash).toString('base64'))).toEqual(vector.proof ?? []);
    }
  });

  it('proves and verifies every leaf and every pair of sizes up to 33 leaves, and refuses a changed leaf', () => {
    const many = Array.from({ length: 33 }, (_, index) => leafHash(`record ${index}`));
    for (let size = 1; size <= many.length; size++) {
      const root = rootOf(many, 0, size);
      for (let index = 0; index < size; index++) {
        const proof = inclusionProof(many, index, size);
        expect(verifyInclusion({ leaf: many[index] as Uint8Array, index, size, proof, root }).ok).toBe(true);
        const other = leafHash(`edited ${index}`);
        expect(verifyInclusion({ leaf: other, index, size, proof, root }).ok).toBe(false);
      }
      for (let oldSize = 1; oldSize <= size; oldSize++) {
        const claim = {
          oldSize,
          oldRoot: rootOf(many, 0, oldSize),
          newSize: size,
          newRoot: root,
          proof: consistencyProof(many, oldSize, size),
        };
        expect(verifyConsistency(claim).ok).toBe(true);
        if (oldSize > 0 && oldSize < size) {
          expect(verifyConsistency({ ...claim, oldRoot: leafHash('rewritten') }).ok).toBe(false);
        }
      }
    }
  });
});
