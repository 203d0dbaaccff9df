export { type Checkpoint, formatCheckpoint, parseCheckpoint } from './checkpoint.js';
export { cosignatureLine } from './cosign.js';
export {
  type Checked,
  generateNoteKeys,
  type KeyKind,
  type NoteKey,
  type NoteKeyPair,
  parseSignerKey,
  parseVerifierKey,
} from './keys.js';
export {
  type NoteSignature,
  openNote,
  type ParsedNote,
  parseNote,
  signNote,
  type VerifiedSignature,
} from './note.js';
export {
  type ProvenRecord,
  type RecordProof,
  type RecordProofCheck,
  recordProofFormat,
  verifyRecordProof,
} from './record-proof.js';
