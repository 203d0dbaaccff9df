import { ToolgateError } from '@toolgate/core';
import { type EventDraft, type LedgerEvent, ledgerSchemaVersion } from '@toolgate/ledger';
import type { PoolClient } from 'pg';
import type { AppendOutcome } from './append-transaction.js';
import { sealFunction } from './group-commit-schema.js';

/** A draft to append, with its payload's canonical JSON (computed when it was queued). */
export interface WaitingDraft {
  readonly draft: EventDraft;
  readonly payload: string;
}

/**
 * One append of a batch of drafts, in one round trip of two transactions. 1. {@link sealFunction}
 * takes the head lock and seals the drafts; its transaction commits without waiting for the flush,
 * so the lock is free for the next writer at once. 2. A transactional logical message (one WAL
 * record, no table) commits with the session's synchronous_commit: it returns once the log is on
 * disk past the seal, and the writers waiting at the same moment share that flush. The append
 * resolves only then. A draft whose id is stored already gets the stored event.
 *
 * The seal is visible to readers a few milliseconds before it is durable; a crash in that window
 * loses it (and everything after it: the log is a prefix), and none of its writers was told it was
 * stored. Readers that sign or certify (`treeHead`, `verifyPostgresLedger`) wait for the flush of
 * what they read: see `waitDurable`.
 */
export async function appendGrouped(
  client: PoolClient,
  ledger: string,
  drafts: readonly WaitingDraft[],
  stamp: () => string,
): Promise<AppendOutcome> {
  const quote = (value: string | undefined) => (value === undefined ? 'NULL' : client.escapeLiteral(value));
  const fields = drafts.flatMap(({ draft, payload }) => {
    const parts = lineParts(draft, payload, stamp());
    return [
      draft.id,
      draft.runId,
      draft.kind,
      parts.at,
      parts.front,
      parts.idText,
      parts.idPrefix,
      parts.middle,
      parts.tail,
      parts.finish,
    ].map(quote);
  });
  const text = [
    'BEGIN',
    `SELECT seq, line, head_seq, head_hash FROM ${sealFunction}(${quote(ledger)}, ARRAY[${fields.join(', ')}]::text[])`,
    'COMMIT',
    `SELECT FROM pg_logical_emit_message(true, ${quote(flushPrefix)}, '')`,
  ].join('; ');
  const results = (await client.query(text).catch((error: { code?: string; message?: string }) => {
    // The seal function's own refusal (its head row is gone): the ledger is broken, not the server.
    throw error.code === headMissing ? new ToolgateError('LEDGER_CORRUPT', error.message ?? '') : error;
  })) as unknown as { rows: Record<string, string>[] }[];
  const rows = results[1]?.rows ?? [];
  const head = rows[0];
  if (!head || rows.length !== drafts.length) {
    throw new ToolgateError(
      'LEDGER_CORRUPT',
      `the ledger "${ledger}" sealed ${rows.length} of ${drafts.length} appends: its function ${sealFunction} was changed`,
    );
  }
  return {
    head: { seq: Number(head.head_seq), hash: head.head_hash! },
    outcomes: rows.map((row) => JSON.parse(row.line!) as LedgerEvent),
  };
}

/** The code {@link sealFunction} raises when the ledger's head row is missing. */
const headMissing = 'XX001';

/** The prefix of the logical message whose commit waits for the flush (what logical decoding sees of it). */
const flushPrefix = 'toolgate_ledger_flush';

/**
 * The parts of a draft's canonical line around what only the sealing writer knows (its seq, the
 * previous hash, and the default id `runId:seq`): the line is
 * `front "hash":"H", "id":ID middle PREV tail SEQ finish`, as `envelopeParts` builds it.
 */
function lineParts(draft: EventDraft, payload: string, at: string) {
  const text = (value: string) => JSON.stringify(value);
  return {
    at,
    front: `{"actor":${text(draft.actor)},"at":${text(at)},`,
    idText: draft.id === undefined ? undefined : text(draft.id),
    idPrefix: draft.id === undefined ? text(`${draft.runId}:`).slice(0, -1) : undefined,
    middle: `,"kind":${text(draft.kind)},"payload":${payload},"prev":"`,
    tail: `","runId":${text(draft.runId)},"schemaVersion":${ledgerSchemaVersion},"seq":`,
    finish: `,"turn":${draft.turn ?? 0}}`,
  };
}
