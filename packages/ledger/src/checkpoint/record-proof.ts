// Imports node:crypto only: an auditor's checker depends on nothing else of ours.
import { leafHash } from '../merkle/hash.js';
import { type ProofResult, verifyInclusion } from '../merkle/verify.js';
import { type Checkpoint, parseCheckpoint } from './checkpoint.js';
import { type NoteKey, parseVerifierKey } from './keys.js';
import { openNote, type VerifiedSignature } from './note.js';

/** The format line of an inclusion proof that `toolgate-ledger prove` prints. */
export const recordProofFormat = 'toolgate-ledger inclusion proof v1';

/** An inclusion proof of one ledger record: the record's stored line, where it stands, the hashes. */
export interface RecordProof {
  readonly format: typeof recordProofFormat;
  /** The record's seq: its leaf index. */
  readonly seq: number;
  /** The size of the tree (the checkpoint's) the proof leads to. */
  readonly treeSize: number;
  /** The record exactly as stored: its canonical JSON line, without the newline. */
  readonly record: string;
  /** The sibling hashes from the leaf up, in base64. */
  readonly hashes: readonly string[];
}

/** What {@link verifyRecordProof} takes: nothing but the proof, the checkpoint and the keys. */
export interface RecordProofCheck {
  /** The proof document (parsed JSON, or its text). */
  readonly proof: RecordProof | string;
  /** The signed checkpoint note. */
  readonly checkpoint: string;
  /** The log's verifier key (`<name>+<id>+<key>`) and any witness keys whose cosignatures to check. */
  readonly keys: readonly (string | NoteKey)[];
}

/** A verified proof: the checkpoint it is against and who signed it. */
export interface ProvenRecord {
  readonly checkpoint: Checkpoint;
  readonly signatures: readonly VerifiedSignature[];
  readonly seq: number;
}

/**
 * Checks that one record is in the ledger a signed checkpoint commits to. Needs no ledger, no store
 * and nothing of toolgate but this function (it imports node:crypto only).
 *
 * @example
 * const result = verifyRecordProof({ proof: proofText, checkpoint: noteText, keys: [logVerifierKey] });
 * if (!result.ok) console.error(result.reason);
 */
export function verifyRecordProof(check: RecordProofCheck): ProofResult & { readonly proven?: ProvenRecord } {
  const keys: NoteKey[] = [];
  for (const key of check.keys) {
    if (typeof key !== 'string') keys.push(key);
    else {
      const parsed = parseVerifierKey(key);
      if (!parsed.ok) return parsed;
      keys.push(parsed.value);
    }
  }
  const opened = openNote(check.checkpoint, keys);
  if (!opened.ok) return { ok: false, reason: `the checkpoint: ${opened.reason}` };
  const checkpoint = parseCheckpoint(opened.value.text);
  if (!checkpoint.ok) return checkpoint;
  const proof = readProof(check.proof);
  if (!proof.ok) return proof;
  const { seq, treeSize, record, hashes } = proof.value;
  if (treeSize !== checkpoint.value.size) {
    return {
      ok: false,
      reason: `the proof is against a tree of ${treeSize} records, the checkpoint covers ${checkpoint.value.size}: prove against this checkpoint`,
    };
  }
  const recordSeq = seqOf(record);
  if (recordSeq !== seq)
    return { ok: false, reason: `the record holds seq ${recordSeq}, the proof says ${seq}` };
  const result = verifyInclusion({
    leaf: leafHash(record),
    index: seq,
    size: treeSize,
    proof: hashes.map((hash) => new Uint8Array(Buffer.from(hash, 'base64'))),
    root: checkpoint.value.root,
  });
  if (!result.ok) return { ok: false, reason: `the record at seq ${seq}: ${result.reason}` };
  return { ok: true, proven: { checkpoint: checkpoint.value, signatures: opened.value.verified, seq } };
}

function readProof(
  input: RecordProof | string,
): { ok: true; value: RecordProof } | { ok: false; reason: string } {
  let value: unknown = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch (error) {
      return { ok: false, reason: `the proof is not JSON (${(error as Error).message})` };
    }
  }
  const proof = value as Partial<RecordProof> | null;
  if (
    typeof proof !== 'object' ||
    proof === null ||
    proof.format !== recordProofFormat ||
    !Number.isSafeInteger(proof.seq) ||
    !Number.isSafeInteger(proof.treeSize) ||
    typeof proof.record !== 'string' ||
    !Array.isArray(proof.hashes) ||
    !proof.hashes.every((hash) => typeof hash === 'string')
  ) {
    return {
      ok: false,
      reason: `the proof is not a "${recordProofFormat}" document as \`toolgate-ledger prove\` prints it`,
    };
  }
  return { ok: true, value: proof as RecordProof };
}

function seqOf(record: string): number | undefined {
  try {
    const value = JSON.parse(record) as { seq?: unknown };
    return typeof value.seq === 'number' ? value.seq : undefined;
  } catch {
    return undefined;
  }
}
