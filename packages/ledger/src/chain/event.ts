import { type JsonValue, ToolgateError } from '@toolgate/core';
import { z } from 'zod';

/** The schema version this package writes. A ledger with a larger one is refused. */
export const ledgerSchemaVersion = 1;

/** The `prev` of the first event of every ledger: 64 zeros. */
export const genesisHash = '0'.repeat(64);

/** Event kinds are dotted lower-case `noun.verb` names such as `tool.called` or `run.started`. */
export const eventKindPattern = /^[a-z][a-z0-9]*(\.[a-z][a-z0-9]*)+$/;

const sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 lower-case hex digits');
const name = z.string().min(1, 'must not be empty');
const count = z.number().int().nonnegative();

/** The zod schema of one stored ledger event (the envelope; the payload is any JSON). */
export const ledgerEventSchema = z.strictObject({
  seq: count,
  id: name,
  runId: name,
  turn: count,
  kind: z.string().regex(eventKindPattern, 'must be a dotted lower-case kind such as "tool.called"'),
  actor: name,
  payload: z.json(),
  at: z.string().min(1, 'must not be empty'),
  schemaVersion: z.literal(ledgerSchemaVersion),
  prev: sha256,
  hash: sha256,
});

/** One event of a ledger, as stored: hash-chained to the one before it. */
export interface LedgerEvent {
  /** 0, 1, 2 … within one ledger. */
  readonly seq: number;
  /** Unique within the ledger; appending an id that exists returns the stored event. */
  readonly id: string;
  readonly runId: string;
  readonly turn: number;
  /** A dotted lower-case kind such as `tool.called`. */
  readonly kind: string;
  /** Who caused the event: an agent's name, `system`, … */
  readonly actor: string;
  readonly payload: JsonValue;
  /** When, as an ISO-8601 string from the ledger's injected clock. */
  readonly at: string;
  readonly schemaVersion: number;
  /** The hash of the event before, or {@link genesisHash}. */
  readonly prev: string;
  /** `sha256(prev ‖ canonical(event without hash))`, hex. */
  readonly hash: string;
}

/** What a caller appends; the ledger fills in seq, at, schemaVersion, prev and hash. */
export interface EventDraft {
  /**
   * Default: `${runId}:${seq}`. Give one to make an append idempotent (a retry of one of the latest
   * 1,024 appends to a file or memory store; of any append to PostgreSQL).
   */
  id?: string;
  runId: string;
  /** Default 0. */
  turn?: number;
  kind: string;
  actor: string;
  /** Default `{}`. Must be plain JSON. */
  payload?: JsonValue;
}

const draftSchema = z.object({
  id: name.optional(),
  runId: name,
  turn: count.optional(),
  kind: ledgerEventSchema.shape.kind,
  actor: name,
});

const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const surrogate = /[\ud800-\udfff]/;

function isName(value: unknown): value is string {
  return (
    typeof value === 'string' && value.length > 0 && !(surrogate.test(value) && loneSurrogate.test(value))
  );
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

/** Checks a draft's envelope fields; the payload is checked when it is canonicalised. */
export function checkDraft(draft: EventDraft): void {
  if (
    typeof draft === 'object' &&
    draft !== null &&
    (draft.id === undefined || isName(draft.id)) &&
    isName(draft.runId) &&
    (draft.turn === undefined || isCount(draft.turn)) &&
    typeof draft.kind === 'string' &&
    eventKindPattern.test(draft.kind) &&
    isName(draft.actor)
  ) {
    return;
  }
  const result = draftSchema.safeParse(draft);
  const issue = result.error?.issues[0];
  const problem = issue
    ? `${issue.path.join('.') || '(root)'} ${issue.message}`
    : 'a name holds a lone UTF-16 surrogate, which has no canonical JSON form';
  const kind = typeof draft?.kind === 'string' ? ` of kind ${JSON.stringify(draft.kind)}` : '';
  throw new ToolgateError(
    'INVALID_EVENT',
    `cannot append the event${kind}: ${problem}; fix the event before appending it`,
  );
}

const envelopeKeys = Object.keys(ledgerEventSchema.shape).length;

function isText(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

/** The fast check of a parsed record (names are not searched for lone surrogates: the hash covers their bytes). */
function isEnvelope(value: Record<string, unknown>): boolean {
  // Exactly as many keys as the envelope has, and each of its fields present: no stray keys.
  return (
    Object.keys(value).length === envelopeKeys &&
    isCount(value.seq) &&
    isText(value.id) &&
    isText(value.runId) &&
    isCount(value.turn) &&
    typeof value.kind === 'string' &&
    eventKindPattern.test(value.kind) &&
    isText(value.actor) &&
    typeof value.at === 'string' &&
    value.at.length > 0 &&
    value.schemaVersion === ledgerSchemaVersion &&
    // prev must equal the hash before it and hash the hash of the record: both are checked as hex there.
    typeof value.prev === 'string' &&
    typeof value.hash === 'string' &&
    value.payload !== undefined
  );
}

/**
 * Checks a parsed record against the envelope. A newer schema version is LEDGER_UNAVAILABLE (this
 * package cannot read it); anything else malformed is LEDGER_CORRUPT.
 */
export function parseEvent(value: unknown, where: string): LedgerEvent {
  const version = (value as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (typeof version === 'number' && version > ledgerSchemaVersion) {
    throw new ToolgateError(
      'LEDGER_UNAVAILABLE',
      `${where} was written by ledger schema version ${version}, newer than ${ledgerSchemaVersion}, ` +
        'which this version of @toolgate/ledger reads; upgrade @toolgate/ledger to read it',
    );
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && isEnvelope(value as never)) {
    return value as LedgerEvent;
  }
  const result = ledgerEventSchema.safeParse(value);
  const issue = result.error?.issues[0];
  const problem = issue
    ? `${issue.path.join('.') || '(root)'} ${issue.message}`
    : 'a name holds a lone UTF-16 surrogate';
  throw new ToolgateError('LEDGER_CORRUPT', `${where} is not a valid ledger event: ${problem}`);
}
