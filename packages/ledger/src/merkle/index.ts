export { emptyRoot, leafHash, nodeHash } from './hash.js';
export { consistencyProof, inclusionProof } from './prove.js';
export { MerkleTree, rootOf } from './tree.js';
export {
  type ConsistencyClaim,
  type InclusionClaim,
  type ProofResult,
  verifyConsistency,
  verifyInclusion,
} from './verify.js';
