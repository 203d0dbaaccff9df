/**
 * @toolgate/ledger/trust: what an auditor needs apart from any store — C2SP signed-note keys and
 * checkpoints, witness cosignatures, RFC 9162 Merkle hashes and proofs, and
 * {@link verifyRecordProof}. Its modules import `node:crypto` and nothing else (no file system, no
 * database, no other toolgate package), so it loads where only a proof and a checkpoint are at hand.
 *
 * @example
 * // verifyRecordProof, imported from the @toolgate/ledger/trust entry
 * const result = verifyRecordProof({ proof: proofText, checkpoint: noteText, keys: [logVerifierKey] });
 * if (!result.ok) console.error(result.reason);
 *
 * @module
 */
export {
  type Checked,
  type Checkpoint,
  cosignatureLine,
  formatCheckpoint,
  generateNoteKeys,
  type KeyKind,
  type NoteKey,
  type NoteKeyPair,
  type NoteSignature,
  openNote,
  type ParsedNote,
  type ProvenRecord,
  parseCheckpoint,
  parseNote,
  parseSignerKey,
  parseVerifierKey,
  type RecordProof,
  type RecordProofCheck,
  recordProofFormat,
  signNote,
  type VerifiedSignature,
  verifyRecordProof,
} from './checkpoint/index.js';
export {
  type ConsistencyClaim,
  consistencyProof,
  emptyRoot,
  type InclusionClaim,
  inclusionProof,
  leafHash,
  MerkleTree,
  nodeHash,
  type ProofResult,
  rootOf,
  verifyConsistency,
  verifyInclusion,
} from './merkle/index.js';
