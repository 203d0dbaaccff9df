import { ToolgateError } from '@toolgate/core';
import { type ChainHead, type EventDraft, type LedgerEvent } from '@toolgate/ledger';
import { type SealedEvent, sealEvent } from '@toolgate/ledger/internal';
import type { PoolClient } from 'pg';
import type { AppendOutcome } from './append-transaction.js';
import { eventsTable, headsTable, notifyChannel, pendingTable } from './schema.js';

/** A draft to append, with its payload's canonical JSON (computed when it was queued). */
export interface WaitingDraft {
  readonly draft: EventDraft;
  readonly payload: string;
}

/** A waiting draft as the lock holder reads it. */
interface PendingRow {
  n: string;
  alive: boolean;
  seq: string | null;
  at: string;
  draft: string;
  payload: string;
  /** The stored record under the draft's id, when there is one (a retried append). */
  known: string | null;
  /** The record a lock holder sealed this draft into (seq set), for its writer to pick up. */
  sealed: string | null;
}

/** The seq a lock holder writes on a draft it could not seal (its writer gets INVALID_EVENT). */
const refusedSeq = -1;

/**
 * One group-committed append of a batch of drafts, in two round trips. The first puts the drafts in
 * the table of waiting drafts (committed without waiting for the disk: the table is unlogged), then
 * takes the ledger's head lock and reads every waiting draft. Whoever gets the lock seals all the
 * waiting drafts of live writers (in the order they were put there) in one transaction and one
 * commit, and marks them sealed; a writer whose drafts a lock holder already sealed only picks up
 * its records. So 8 writers waiting on the lock share one commit's flush instead of taking turns.
 *
 * A draft whose writer's session is gone (killed mid-append) is dropped, never sealed, by the next
 * lock holder. A draft whose id is stored already gets the stored event, as with one writer.
 */
export async function appendGrouped(
  client: PoolClient,
  ledger: string,
  drafts: readonly WaitingDraft[],
  stamp: () => string,
): Promise<AppendOutcome> {
  const quote = (value: string) => client.escapeLiteral(value);
  const name = quote(ledger);
  const outcomes: (LedgerEvent | Error | undefined)[] = drafts.map(() => undefined);
  const values = drafts.map(({ draft, payload }) => {
    const { payload: _, ...envelope } = draft;
    return (
      `(${name}, pg_backend_pid(), pg_postmaster_start_time(), ${draft.id === undefined ? 'NULL' : quote(draft.id)}, ` +
      `${quote(stamp())}, ${quote(JSON.stringify(envelope))}, ${quote(payload)})`
    );
  });
  const results = (await client.query(
    [
      'BEGIN',
      'SET LOCAL synchronous_commit TO OFF',
      `INSERT INTO ${pendingTable} (ledger, owner, epoch, draft_id, at, draft, payload) VALUES ${values.join(', ')} RETURNING n`,
      'COMMIT',
      'BEGIN',
      `SELECT next_seq, hash FROM ${headsTable} WHERE ledger = ${name} FOR UPDATE`,
      `SELECT p.n, p.seq, p.at, p.draft, p.payload, k.line AS known, s.line AS sealed,
              (p.epoch = pg_postmaster_start_time() AND p.owner IN (SELECT pid FROM pg_stat_activity)) AS alive
         FROM ${pendingTable} p
         LEFT JOIN ${eventsTable} k ON p.seq IS NULL AND k.ledger = p.ledger AND k.id = p.draft_id
         LEFT JOIN ${eventsTable} s ON s.ledger = p.ledger AND s.seq = p.seq
        WHERE p.ledger = ${name} AND (p.seq IS NULL OR p.owner = pg_backend_pid())
        ORDER BY p.n`,
    ].join('; '),
  )) as unknown as { rows: Record<string, unknown>[] }[];
  const mine = new Map((results[2]?.rows ?? []).map((row, index) => [String(row.n), index] as const));
  const headRow = results[5]?.rows[0] as { next_seq: string; hash: string } | undefined;
  if (!headRow) {
    throw new ToolgateError(
      'LEDGER_CORRUPT',
      `the head row of the ledger "${ledger}" is missing: it was deleted`,
    );
  }
  let head: ChainHead = { seq: Number(headRow.next_seq), hash: headRow.hash };
  const rows = (results[6]?.rows ?? []) as unknown as PendingRow[];

  const known = new Map<string, LedgerEvent>();
  const sealed: SealedEvent[] = [];
  const marks: [n: string, seq: number][] = [];
  const gone: string[] = [];
  for (const row of rows) {
    const own = mine.get(row.n);
    if (row.seq !== null) {
      if (own !== undefined) outcomes[own] = pickedUp(row, drafts[own]!.draft);
      gone.push(row.n); // sealed for this session: picked up now, or left by a session that had its pid
      continue;
    }
    if (own === undefined && !row.alive) {
      gone.push(row.n); // its writer is gone: it was told its append failed
      continue;
    }
    const draft = { ...(JSON.parse(row.draft) as EventDraft), payload: JSON.parse(row.payload) };
    const stored =
      (draft.id === undefined ? undefined : known.get(draft.id)) ??
      (row.known === null ? undefined : (JSON.parse(row.known) as LedgerEvent));
    let outcome: LedgerEvent | Error;
    if (stored) outcome = stored;
    else {
      try {
        const next = sealEvent(draft, head, row.at);
        sealed.push(next);
        head = { seq: next.event.seq + 1, hash: next.event.hash };
        outcome = next.event;
      } catch (error) {
        outcome = refusal(draft, error);
      }
    }
    if (!(outcome instanceof Error)) known.set(outcome.id, outcome);
    if (own === undefined) marks.push([row.n, outcome instanceof Error ? refusedSeq : outcome.seq]);
    else {
      outcomes[own] = outcome;
      gone.push(row.n);
    }
  }
  await client.query(
    [
      ...(sealed.length > 0 ? insertSealed(quote, name, sealed, head) : ['SET LOCAL synchronous_commit TO OFF']),
      ...(marks.length > 0
        ? [
            `UPDATE ${pendingTable} SET seq = v.seq FROM (VALUES ${marks.map(([n, seq]) => `(${n}::bigint, ${seq}::bigint)`).join(', ')}) AS v(n, seq) WHERE ${pendingTable}.n = v.n`,
          ]
        : []),
      ...(gone.length > 0 ? [`DELETE FROM ${pendingTable} WHERE n IN (${gone.join(', ')})`] : []),
      'COMMIT',
    ].join('; '),
  );
  return {
    head,
    outcomes: outcomes.map(
      (outcome) =>
        outcome ??
        new ToolgateError(
          'LEDGER_UNAVAILABLE',
          `the ledger "${ledger}" lost a waiting append before it was sealed: append it again (with its id, it is stored once)`,
        ),
    ),
  };
}

/** Moves the head, inserts the records and notifies followers: the head first, as with one writer. */
function insertSealed(
  quote: (value: string) => string,
  name: string,
  sealed: SealedEvent[],
  head: ChainHead,
): string[] {
  const rows = sealed.map(
    ({ event, line }) =>
      `(${name}, ${event.seq}, ${quote(event.id)}, ${quote(event.runId)}, ${quote(event.kind)}, ${quote(event.at)}, ${quote(line)})`,
  );
  return [
    `UPDATE ${headsTable} SET next_seq = ${head.seq}, hash = ${quote(head.hash)} WHERE ledger = ${name}`,
    `INSERT INTO ${eventsTable} (ledger, seq, id, run_id, kind, at, line) VALUES ${rows.join(', ')}`,
    `SELECT pg_notify(${quote(notifyChannel)}, ${name})`,
  ];
}

/** The record another lock holder sealed a draft of this writer into. */
function pickedUp(row: PendingRow, draft: EventDraft): LedgerEvent | Error {
  if (row.sealed !== null && Number(row.seq) !== refusedSeq) return JSON.parse(row.sealed) as LedgerEvent;
  return refusal(draft, undefined);
}

function refusal(draft: EventDraft, error: unknown): Error {
  if (ToolgateError.is(error)) return error;
  const message = error instanceof Error ? error.message : 'it could not be sealed onto the chain';
  return new ToolgateError(
    'INVALID_EVENT',
    `cannot append the event of kind ${JSON.stringify(draft.kind)}: ${message}`,
    { cause: error },
  );
}
