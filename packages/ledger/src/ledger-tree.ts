import { ToolgateError } from '@toolgate/core';
import { type ChainHead, ChainVerifier, emptyHead, isFault, lineOf } from './chain/chain.js';
import type { LedgerEvent } from './chain/event.js';
import { leafHash } from './merkle/hash.js';
import { MerkleTree } from './merkle/tree.js';

/** The head of a ledger's Merkle tree: how many records it covers and their RFC 9162 root. */
export interface TreeHead {
  /** The records of seq 0 … size − 1. */
  readonly size: number;
  readonly root: Uint8Array;
}

/** The Merkle leaf of a record: SHA-256(0x00 ‖ its stored line), the line being its canonical JSON. */
export function recordLeaf(event: LedgerEvent): Uint8Array {
  return leafHash(lineOf(event));
}

/** A record's stored line (its canonical JSON, without the newline): the bytes its Merkle leaf hashes. */
export function recordLine(event: LedgerEvent): string {
  return lineOf(event);
}

/** The leaf hashes of a ledger's records, in seq order (what proofs are built from). */
export async function recordLeaves(events: AsyncIterable<LedgerEvent>): Promise<Uint8Array[]> {
  const leaves: Uint8Array[] = [];
  for await (const event of events) leaves.push(recordLeaf(event));
  return leaves;
}

/**
 * A store's Merkle tree, kept beside its hash chain: it holds O(log n) hashes and, when asked for its
 * head, hashes only the records appended since it was last asked (the first ask reads the ledger once),
 * checking each against the chain from the genesis hash on, so a head is never taken over an edited
 * record. Once a head was asked for, the store feeds in each record it seals ({@link sealed}: one
 * SHA-256 of the line, no read). Records and the chain are unchanged, so every old ledger verifies.
 */
export class LedgerTree {
  readonly #tree = new MerkleTree();
  /** The chain head after the last record in the tree: its hash (the seq is the tree's size). */
  #hash: string = emptyHead.hash;
  /** True once a head was asked for: from then on the store's own appends are fed in as they are sealed. */
  #live = false;
  readonly #readFrom: (fromSeq: number) => AsyncIterable<LedgerEvent>;
  #catchingUp: Promise<TreeHead> | undefined;
  #root: TreeHead | undefined;

  /** @param readFrom the store's records from a seq on, in seq order. */
  constructor(readFrom: (fromSeq: number) => AsyncIterable<LedgerEvent>) {
    this.#readFrom = readFrom;
  }

  /** The tree head over every record stored when the call began (and any appended while it reads). */
  head(): Promise<TreeHead> {
    const previous = this.#catchingUp ?? Promise.resolve(undefined);
    const next = previous.catch(() => undefined).then(() => this.#catchUp());
    this.#catchingUp = next;
    return next;
  }

  /**
   * Feeds a record the store has just sealed (its seq, stored line and hash), so a live tree needs no
   * read: ignored unless the tree is live and the record is the next one (else the next head reads it).
   */
  sealed(seq: number, line: string, hash: string): void {
    if (!this.#live || seq !== this.#tree.size) return;
    this.#tree.appendText(line);
    this.#hash = hash;
  }

  async #catchUp(): Promise<TreeHead> {
    this.#live = true;
    const head = (): ChainHead => ({ seq: this.#tree.size, hash: this.#hash });
    let chain = new ChainVerifier(head());
    for await (const event of this.#readFrom(this.#tree.size)) {
      if (event.seq < this.#tree.size) continue; // fed in by the store while this read went on
      if (chain.head.seq !== this.#tree.size) chain = new ChainVerifier(head());
      if (event.seq !== this.#tree.size) {
        throw new ToolgateError(
          'LEDGER_CORRUPT',
          `the ledger gave seq ${event.seq} where seq ${this.#tree.size} belongs: verify it before taking its tree head`,
        );
      }
      const line = lineOf(event);
      const checked = chain.checkHash(line);
      if (isFault(checked)) {
        throw new ToolgateError(
          'LEDGER_CORRUPT',
          `the record at seq ${checked.seq} is bad: ${checked.reason}; no tree head is taken over it`,
        );
      }
      this.#tree.appendText(line);
      this.#hash = chain.head.hash;
    }
    return this.#current();
  }

  #current(): TreeHead {
    const size = this.#tree.size;
    if (this.#root?.size !== size) this.#root = { size, root: this.#tree.root() };
    return this.#root;
  }
}
