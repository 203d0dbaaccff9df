import { stat } from 'node:fs/promises';
import { readLedgerFile, recordLeaf, recordLine } from '@toolgate/ledger';
import {
  type Checkpoint,
  inclusionProof,
  parseCheckpoint,
  parseNote,
  type RecordProof,
  recordProofFormat,
} from '@toolgate/ledger/trust';

/** The signed checkpoint `serve --checkpoint` proves records against, and the keys the page checks it with. */
export interface ViewerTrust {
  /** The checkpoint file as it was named on the command line. */
  readonly path: string;
  /** The signed note, exactly as read. */
  readonly note: string;
  /** The verifier keys (`name+id+key`) of the log and of any witnesses, as given with `--pub`. */
  readonly keys: readonly string[];
}

/**
 * What `/proof?seq=N` answers: the checkpoint and keys with the record's inclusion proof, for the page
 * to verify itself (`proof`); or why no proof can be made (`problem`: the ledger cannot give the
 * records the checkpoint covers) or need be (`uncovered`: the record is newer than the checkpoint).
 * The server never says "included": only the page's own check of the proof does.
 */
export interface ProofAnswer {
  readonly checkpoint: { readonly path: string; readonly note: string; readonly keys: readonly string[] };
  readonly seq: number;
  readonly proof?: RecordProof;
  readonly problem?: string;
  readonly uncovered?: string;
}

/** The size a checkpoint claims, read without checking its signature (the page checks that). */
export function checkpointClaim(note: string): Checkpoint | string {
  const parsed = parseNote(note);
  if (!parsed.ok) return parsed.reason;
  const checkpoint = parseCheckpoint(parsed.value.text);
  return checkpoint.ok ? checkpoint.value : checkpoint.reason;
}

/**
 * Makes inclusion proofs of a ledger file's records against one checkpoint, from the file as it is
 * now (read through the chain check). The leaves of the records the checkpoint covers are read once
 * and kept while the file is unchanged (same size, inode and mtime).
 */
export class RecordProofs {
  readonly #file: string;
  readonly #trust: ViewerTrust;
  #cached: { key: string; leaves: Uint8Array[] } | undefined;

  constructor(file: string, trust: ViewerTrust) {
    this.#file = file;
    this.#trust = trust;
  }

  /** The answer for the record at `seq`. */
  async answer(seq: number): Promise<ProofAnswer> {
    const base = { checkpoint: { ...this.#trust }, seq };
    const claim = checkpointClaim(this.#trust.note);
    if (typeof claim === 'string') return { ...base, problem: `${this.#trust.path}: ${claim}` };
    if (seq >= claim.size) {
      return {
        ...base,
        uncovered: `seq ${seq} was appended after checkpoint ${this.#trust.path}, which covers seq 0 to ${claim.size - 1}: sign a newer checkpoint to prove it`,
      };
    }
    let leaves: Uint8Array[];
    let record: string | undefined;
    try {
      leaves = await this.#leaves(claim.size);
      record = await this.#line(seq);
    } catch (error) {
      return { ...base, problem: `the ledger cannot be read to make a proof: ${(error as Error).message}` };
    }
    if (leaves.length < claim.size || record === undefined) {
      return {
        ...base,
        problem: `the ledger holds ${leaves.length} records, but checkpoint ${this.#trust.path} committed to ${claim.size}: records were cut from its tail`,
      };
    }
    return {
      ...base,
      proof: {
        format: recordProofFormat,
        seq,
        treeSize: claim.size,
        record,
        hashes: inclusionProof(leaves, seq, claim.size).map((hash) => Buffer.from(hash).toString('base64')),
      },
    };
  }

  /** The leaves of the first `size` records (fewer when the ledger holds fewer). */
  async #leaves(size: number): Promise<Uint8Array[]> {
    const info = await stat(this.#file);
    const key = `${info.ino}:${info.size}:${info.mtimeMs}:${size}`;
    if (this.#cached?.key === key) return this.#cached.leaves;
    const leaves: Uint8Array[] = [];
    for await (const event of readLedgerFile(this.#file)) {
      if (event.seq >= size) break;
      leaves.push(recordLeaf(event));
    }
    this.#cached = { key, leaves };
    return leaves;
  }

  /** The stored line of the record at `seq`: the bytes its leaf hashes. */
  async #line(seq: number): Promise<string | undefined> {
    for await (const event of readLedgerFile(this.#file)) {
      if (event.seq === seq) return recordLine(event);
      if (event.seq > seq) break;
    }
    return undefined;
  }
}
