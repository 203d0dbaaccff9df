import { ToolgateError } from '@toolgate/core';
import { ChainVerifier, isFault, lineOf } from './chain/chain.js';
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
 * record. The append path does not change, so the chain's cost and every old ledger stay as they were.
 */
export class LedgerTree {
  readonly #tree = new MerkleTree();
  readonly #chain = new ChainVerifier();
  readonly #readFrom: (fromSeq: number) => AsyncIterable<LedgerEvent>;
  #catchingUp: Promise<TreeHead> | undefined;

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

  async #catchUp(): Promise<TreeHead> {
    for await (const event of this.#readFrom(this.#tree.size)) {
      if (event.seq !== this.#tree.size) {
        throw new ToolgateError(
          'LEDGER_CORRUPT',
          `the ledger gave seq ${event.seq} where seq ${this.#tree.size} belongs: verify it before taking its tree head`,
        );
      }
      const line = lineOf(event);
      const checked = this.#chain.checkHash(line);
      if (isFault(checked)) {
        throw new ToolgateError(
          'LEDGER_CORRUPT',
          `the record at seq ${checked.seq} is bad: ${checked.reason}; no tree head is taken over it`,
        );
      }
      this.#tree.append(leafHash(line));
    }
    return { size: this.#tree.size, root: this.#tree.root() };
  }
}
