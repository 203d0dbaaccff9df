import { type JsonValue, ToolgateError } from '@toolgate/core';
import type { Line } from '../file/lines.js';
import { canonicalJson, canonicalText, keysSorted, sha256Hex } from './canonical.js';
import { envelopeParts, hashKey } from './envelope.js';
import { type EventDraft, genesisHash, type LedgerEvent, ledgerSchemaVersion, parseEvent } from './event.js';
import { fastCheckLine } from './fast-check.js';
import { maxRecordDepth, nestsDeeperThan } from './nesting.js';

/** A sealed event and its stored line (canonical JSON, without the newline). */
export interface SealedEvent {
  readonly event: LedgerEvent;
  readonly line: string;
}

/** Where the next event goes: its seq, and the hash of the event before it. */
export interface ChainHead {
  /** The seq the next event gets (the count of events so far). */
  readonly seq: number;
  /** The hash of the last event, or {@link genesisHash} for an empty ledger. */
  readonly hash: string;
}

/** The head of an empty ledger. */
export const emptyHead: ChainHead = { seq: 0, hash: genesisHash };

/**
 * Fills in the envelope of a checked draft and hashes it onto the chain at `head`. The payload is
 * serialised once: the event's `payload` is parsed back from that text when first read (a copy the
 * caller cannot change, holding exactly what was hashed), so an event nobody reads costs no parse.
 */
export function sealEvent(draft: EventDraft, head: ChainHead, at: string): SealedEvent {
  let payloadText: string;
  try {
    payloadText = canonicalJson(draft.payload ?? {});
  } catch (error) {
    const message = (error as Error).message.replace(/^value /, `the payload of event "${draft.kind}" `);
    throw new ToolgateError('INVALID_EVENT', message, { cause: error });
  }
  const event = {
    seq: head.seq,
    id: draft.id ?? `${draft.runId}:${head.seq}`,
    runId: draft.runId,
    turn: draft.turn ?? 0,
    kind: draft.kind,
    actor: draft.actor,
    payload: JSON.parse(payloadText) as JsonValue,
    at,
    schemaVersion: ledgerSchemaVersion,
    prev: head.hash,
    hash: '',
  };
  const { front, back } = envelopeParts(event, payloadText);
  const hash = sha256Hex(head.hash + front + back);
  event.hash = hash;
  return { event, line: `${front}${hashKey}${hash}",${back}` };
}

/** The stored line (canonical JSON, without the newline) of a sealed event. */
export function lineOf(event: LedgerEvent): string {
  const { front, back } = envelopeParts(event, canonicalJson(event.payload));
  return `${front}${hashKey}${event.hash}",${back}`;
}

/** Why a record failed verification, and which one. */
export interface ChainFault {
  /** The seq the bad record stands at (its position in the ledger). */
  readonly seq: number;
  /** The 1-based line number in a JSONL file. */
  readonly line: number;
  readonly reason: string;
  /** LEDGER_UNAVAILABLE for a newer schema version, LEDGER_CORRUPT otherwise. */
  readonly code: 'LEDGER_CORRUPT' | 'LEDGER_UNAVAILABLE';
}

/**
 * Checks stored lines one at a time against the chain, in constant memory: each must parse, fit
 * the envelope, stand at the next seq, point at the hash before it, be canonical JSON and hash to
 * its own `hash`.
 */
export class ChainVerifier {
  #head: ChainHead;

  /** @param start where the lines begin: the seq of the first and the hash before it. */
  constructor(start: ChainHead = emptyHead) {
    this.#head = start;
  }

  /** The head after the last good record. */
  get head(): ChainHead {
    return this.#head;
  }

  /**
   * Checks the next line when no one needs its event; returns its hash, or the fault. The same
   * verdict as {@link check}: a line the fast check (no parse) cannot vouch for gets the full check,
   * so a bad line is reported with the same reason.
   */
  checkHash(line: string): string | ChainFault {
    const hash = fastCheckLine(line, this.#head);
    if (hash !== undefined) {
      this.#head = { seq: this.#head.seq + 1, hash };
      return hash;
    }
    const result = this.check(line);
    return isFault(result) ? result : result.hash;
  }

  /**
   * Checks the next line as read from a file, on its bytes: a line that is not valid UTF-8 is a bad
   * record (its decoded text, with U+FFFD in place of the bytes, is not what was written).
   */
  checkLine(line: Line): LedgerEvent | ChainFault {
    return line.invalidUtf8 ? this.#notUtf8() : this.check(line.text);
  }

  /** {@link checkHash} of a line as read from a file, on its bytes (see {@link checkLine}). */
  checkLineHash(line: Line): string | ChainFault {
    return line.invalidUtf8 ? this.#notUtf8() : this.checkHash(line.text);
  }

  /** Checks the next line; returns the event, or the fault. */
  check(line: string): LedgerEvent | ChainFault {
    const seq = this.#head.seq;
    if (nestsDeeperThan(line, maxRecordDepth)) {
      return fault(
        seq,
        `the record nests deeper than ${maxRecordDepth} levels, which the ledger never writes: it was edited after it was written`,
      );
    }
    try {
      return this.#check(line, seq);
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      return fault(seq, `the record cannot be checked (${error.message}): it is not one the ledger writes`);
    }
  }

  #notUtf8(): ChainFault {
    return fault(
      this.#head.seq,
      'the record is not valid UTF-8 (a byte was changed after it was written); the ledger writes only UTF-8',
    );
  }

  #check(line: string, seq: number): LedgerEvent | ChainFault {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      return fault(seq, `the record is not JSON (${(error as Error).message})`);
    }
    let event: LedgerEvent;
    try {
      event = parseEvent(value, `the record at seq ${seq}`);
    } catch (error) {
      const typed = error as ToolgateError;
      return fault(
        seq,
        typed.message,
        typed.code === 'LEDGER_UNAVAILABLE' ? 'LEDGER_UNAVAILABLE' : undefined,
      );
    }
    if (event.seq !== seq) {
      return fault(
        seq,
        `its seq is ${event.seq}, expected ${seq}: a record was inserted, deleted or reordered`,
      );
    }
    if (event.prev !== this.#head.hash) {
      return fault(
        seq,
        seq === 0
          ? 'its prev is not the genesis hash: records before it were deleted'
          : `its prev does not match the hash of seq ${seq - 1}: a record was edited, deleted or reordered`,
      );
    }
    // A line written in canonical form is hashed as it stands, without its hash member.
    const text = canonicalLine(line, value) ? line : undefined;
    if (text === undefined) {
      return fault(seq, 'the record is not in canonical JSON form: it was edited after it was written');
    }
    const at = text.indexOf(hashKey);
    const hashed = event.prev + text.slice(0, at) + text.slice(at + hashKey.length + event.hash.length + 2);
    if (sha256Hex(hashed) !== event.hash) {
      return fault(seq, 'its hash does not match its content: the record was edited after it was written');
    }
    this.#head = { seq: seq + 1, hash: event.hash };
    return event;
  }
}

/**
 * True when a stored line is exactly the canonical JSON of what it parsed to. JSON.stringify of the
 * parsed value gives back the line when the line has no whitespace, canonical strings and numbers
 * and no repeated key; then the keys must also be in sorted order. A line whose objects have
 * integer-like keys (which iterate in numeric order) is rebuilt by the canonicaliser instead.
 */
function canonicalLine(line: string, value: unknown): boolean {
  if (JSON.stringify(value) === line) return keysSorted(value);
  const event = value as LedgerEvent;
  let payloadText: string;
  try {
    payloadText = canonicalText(event.payload);
  } catch {
    return false; // no canonical form at all (a lone surrogate): not what the ledger writes
  }
  const { front, back } = envelopeParts(event, payloadText);
  return line === `${front}${hashKey}${event.hash}",${back}`;
}

function fault(seq: number, reason: string, code: ChainFault['code'] = 'LEDGER_CORRUPT'): ChainFault {
  return { seq, line: seq + 1, reason, code };
}

/** True when `check` or `checkHash` returned a fault. */
export function isFault<Good extends LedgerEvent | string>(value: Good | ChainFault): value is ChainFault {
  return typeof value === 'object' && 'reason' in value;
}

/** The fault as a thrown error naming the record. */
export function faultError(fault: ChainFault, file: string): ToolgateError {
  return new ToolgateError(
    fault.code,
    `${file}: the record at seq ${fault.seq} (line ${fault.line}) is bad: ${fault.reason}`,
  );
}
