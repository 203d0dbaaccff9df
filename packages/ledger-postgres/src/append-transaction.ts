import { ToolgateError } from '@toolgate/core';
import type { ChainHead, EventDraft, LedgerEvent } from '@toolgate/ledger';
import { checkDraft, type SealedEvent, sealEvent } from '@toolgate/ledger/internal';
import type { PoolClient } from 'pg';
import { eventsTable, headsTable, notifyChannel } from './schema.js';

/** What one append transaction made of each draft of its batch, in order, and the head it left. */
export interface AppendOutcome {
  readonly head: ChainHead;
  /** The stored event (new, or the one already stored under the draft's id), or why it was refused. */
  readonly outcomes: (LedgerEvent | Error)[];
}

/** Checks a draft as any store does, and refuses what PostgreSQL text cannot hold (NUL in id or runId). */
export function checkStorableDraft(draft: EventDraft): void {
  checkDraft(draft);
  for (const [field, value] of [
    ['id', draft.id],
    ['runId', draft.runId],
  ] as const) {
    if (value?.includes('\u0000')) {
      throw new ToolgateError(
        'INVALID_EVENT',
        `cannot append the event of kind ${JSON.stringify(draft.kind)}: ${field} holds a NUL character, which PostgreSQL text cannot store`,
      );
    }
  }
}

/** The head of a ledger as stored. LEDGER_CORRUPT when its row is missing. */
export async function readHead(client: PoolClient, ledger: string): Promise<ChainHead> {
  const { rows } = await client.query<HeadRow>(`SELECT next_seq, hash FROM ${headsTable} WHERE ledger = $1`, [
    ledger,
  ]);
  return headOf(rows[0], ledger);
}

/**
 * One append transaction in two round trips: lock the head, seal each draft onto it (a draft whose
 * id is stored already gets the stored event), insert, move the head, notify, commit. A draft the
 * chain refuses is an outcome of its own; the others are still stored.
 */
export async function appendBatch(
  client: PoolClient,
  ledger: string,
  drafts: readonly EventDraft[],
  stamp: () => string,
): Promise<AppendOutcome> {
  const locked = await lockHead(client, ledger, drafts);
  let head = locked.head;
  const known = locked.known;
  const outcomes: (LedgerEvent | Error)[] = [];
  const sealed: SealedEvent[] = [];
  for (const draft of drafts) {
    const stored = draft.id === undefined ? undefined : known.get(draft.id);
    if (stored) {
      outcomes.push(stored);
      continue;
    }
    try {
      const next = sealEvent(draft, head, stamp());
      sealed.push(next);
      known.set(next.event.id, next.event);
      head = { seq: next.event.seq + 1, hash: next.event.hash };
      outcomes.push(next.event);
    } catch (error) {
      outcomes.push(error as Error);
    }
  }
  await client.query(sealed.length > 0 ? insertAndCommit(client, ledger, sealed, head) : 'COMMIT');
  return { head, outcomes };
}

interface HeadRow {
  next_seq: string;
  hash: string;
}

function headOf(row: HeadRow | undefined, ledger: string): ChainHead {
  if (!row) {
    throw new ToolgateError(
      'LEDGER_CORRUPT',
      `the head row of the ledger "${ledger}" is missing: it was deleted`,
    );
  }
  return { seq: Number(row.next_seq), hash: row.hash };
}

/**
 * The first of the two round trips of an append transaction: BEGIN, lock the head row, and read the
 * records already stored under the batch's ids. One text of statements, its values quoted by `pg`.
 */
async function lockHead(
  client: PoolClient,
  ledger: string,
  drafts: readonly EventDraft[],
): Promise<{ head: ChainHead; known: Map<string, LedgerEvent> }> {
  const quote = (value: string) => client.escapeLiteral(value);
  const ids = drafts.flatMap((draft) => (draft.id === undefined ? [] : [quote(draft.id)]));
  const statements = [
    'BEGIN',
    `SELECT next_seq, hash FROM ${headsTable} WHERE ledger = ${quote(ledger)} FOR UPDATE`,
    ...(ids.length > 0
      ? [`SELECT id, line FROM ${eventsTable} WHERE ledger = ${quote(ledger)} AND id IN (${ids.join(', ')})`]
      : []),
  ];
  const results = (await client.query(statements.join('; '))) as unknown as {
    rows: Record<string, string>[];
  }[];
  const head = headOf(results[1]?.rows[0] as HeadRow | undefined, ledger);
  const known = new Map<string, LedgerEvent>();
  for (const row of results[2]?.rows ?? []) known.set(row.id!, JSON.parse(row.line!) as LedgerEvent);
  return { head, known };
}

/**
 * The second round trip: move the head, insert the records, notify followers, commit. The head moves
 * first: a transaction cut short anywhere leaves neither.
 */
function insertAndCommit(client: PoolClient, ledger: string, sealed: SealedEvent[], head: ChainHead): string {
  const quote = (value: string) => client.escapeLiteral(value);
  const name = quote(ledger);
  const rows = sealed.map(
    ({ event, line }) =>
      `(${name}, ${event.seq}, ${quote(event.id)}, ${quote(event.runId)}, ${quote(event.kind)}, ${quote(event.at)}, ${quote(line)})`,
  );
  return [
    `UPDATE ${headsTable} SET next_seq = ${head.seq}, hash = ${quote(head.hash)} WHERE ledger = ${name}`,
    `INSERT INTO ${eventsTable} (ledger, seq, id, run_id, kind, at, line) VALUES ${rows.join(', ')}`,
    `SELECT pg_notify(${quote(notifyChannel)}, ${name})`,
    'COMMIT',
  ].join('; ');
}
