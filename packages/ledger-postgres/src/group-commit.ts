import { ToolgateError } from '@toolgate/core';
import { type EventDraft, type LedgerEvent, ledgerSchemaVersion } from '@toolgate/ledger';
import type { PoolClient } from 'pg';
import type { AppendOutcome } from './append-transaction.js';
import { appendFunction, flushTable, waitingTable } from './group-commit-schema.js';
import { headsTable } from './tables.js';

/** A draft to append, with its payload's canonical JSON (computed when it was queued). */
export interface WaitingDraft {
  readonly draft: EventDraft;
  readonly payload: string;
}

/**
 * One group-committed append of a batch of drafts, in one round trip of three transactions. 1. The
 * drafts go into the table of waiting drafts (unlogged: no flush). 2. The append function waits for
 * the writer sealing now, and either picks up the records it sealed them into or seals every waiting
 * draft itself; this commits without waiting for the flush, so the head lock is free at once. 3. A
 * write to the flush table commits with synchronous_commit on: it returns once the log is on disk
 * past the seal, and concurrent writers share that flush. The append resolves only then. A draft
 * whose id is stored already gets the stored event; a draft whose writer's session is gone is
 * dropped, never sealed.
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
  const quote = (value: string) => client.escapeLiteral(value);
  const name = quote(ledger);
  const values = drafts.map(({ draft, payload }) => {
    const parts = lineParts(draft, payload, stamp());
    return `(${[
      name,
      'pg_backend_pid()',
      'pg_postmaster_start_time()',
      ...[draft.id, draft.runId, draft.kind, parts.at, parts.front, parts.idText, parts.idPrefix].map(
        (value) => (value === undefined ? 'NULL' : quote(value)),
      ),
      ...[parts.middle, parts.tail, parts.finish].map(quote),
    ].join(', ')})`;
  });
  const results = (await client.query(
    [
      'BEGIN',
      'SET LOCAL synchronous_commit TO OFF',
      `INSERT INTO ${waitingTable} (ledger, owner, epoch, draft_id, run_id, kind, at, front, id_text, id_prefix, middle, tail, finish) VALUES ${values.join(', ')} RETURNING n`,
      'COMMIT',
      'BEGIN',
      'SET LOCAL synchronous_commit TO OFF',
      `SELECT n, line FROM ${appendFunction}(${name})`,
      `SELECT next_seq, hash FROM ${headsTable} WHERE ledger = ${name}`,
      'COMMIT',
      `INSERT INTO ${flushTable} VALUES (pg_backend_pid())`,
      `DELETE FROM ${flushTable} WHERE owner = pg_backend_pid()`,
    ].join('; '),
  )) as unknown as { rows: Record<string, string>[] }[];
  const mine = new Map((results[2]?.rows ?? []).map((row, index) => [String(row.n), index] as const));
  const outcomes: (LedgerEvent | Error)[] = drafts.map(
    () =>
      new ToolgateError(
        'LEDGER_UNAVAILABLE',
        `the ledger "${ledger}" lost a waiting append before it was sealed: append it again (with its id, it is stored once)`,
      ),
  );
  for (const row of results[6]?.rows ?? []) {
    const index = mine.get(String(row.n));
    if (index !== undefined) outcomes[index] = JSON.parse(row.line!) as LedgerEvent;
  }
  const head = results[7]?.rows[0];
  if (!head) {
    throw new ToolgateError(
      'LEDGER_CORRUPT',
      `the head row of the ledger "${ledger}" is missing: it was deleted`,
    );
  }
  return { head: { seq: Number(head.next_seq), hash: head.hash! }, outcomes };
}

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
