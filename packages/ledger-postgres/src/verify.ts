import { emptyHead, type VerifyOptions, type VerifyResult } from '@toolgate/ledger';
import { ChainVerifier, isFault } from '@toolgate/ledger/internal';
import pg, { type PoolClient } from 'pg';
import { type LedgerLocation, ledgerLocation, unavailable } from './connection.js';
import { waitDurable } from './durable.js';
import { ensureLedger, eventsTable, headsTable } from './schema.js';

/** What {@link verifyPostgresLedger} takes. */
export interface VerifyPostgresOptions extends Pick<VerifyOptions, 'head'> {
  /** The ledger's name. Default: the URL's `ledger` parameter, else `default`. */
  ledger?: string;
}

/** How many records one FETCH brings. */
const fetchSize = 10_000;

/** seq, id, run_id, kind, line: fetched as arrays, which `pg` builds faster than objects. */
type Row = [seq: string, id: string, runId: string, kind: string, line: string];

/**
 * Verifies a ledger in PostgreSQL the way `verifyLedgerFile` verifies a file, streaming the
 * records through a server-side cursor in one read-only snapshot (memory bounded by one FETCH). Besides the
 * chain it checks that the columns reads filter on (seq, id, run, kind) agree with each record, and
 * that the head row names the last record (a cut tail shows). Never throws for a bad ledger; a
 * database or ledger that cannot be reached throws LEDGER_UNAVAILABLE.
 *
 * @example
 * const result = await verifyPostgresLedger('postgres://toolgate@db.internal/agents?ledger=fleet');
 */
export async function verifyPostgresLedger(
  url: string,
  options: VerifyPostgresOptions = {},
): Promise<VerifyResult> {
  const location = ledgerLocation(url, options.ledger);
  const client = new pg.Client({ connectionString: location.connectionString });
  client.on('error', () => {});
  try {
    await client.connect();
    return await verifyIn(client as unknown as PoolClient, location, options.head);
  } catch (error) {
    throw unavailable(location, 'be verified', error);
  } finally {
    await client.end().catch(() => {});
  }
}

async function verifyIn(
  client: PoolClient,
  location: LedgerLocation,
  keptHead?: string,
): Promise<VerifyResult> {
  if (!(await ensureLedger(client, location.ledger, false))) {
    throw new Error(`there is no such ledger: check the URL and the ledger name (?ledger=NAME)`);
  }
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  const head = await client.query<{ next_seq: string; hash: string }>(
    `SELECT next_seq, hash FROM ${headsTable} WHERE ledger = $1`,
    [location.ledger],
  );
  await client.query(
    `DECLARE toolgate_verify NO SCROLL CURSOR FOR
       SELECT seq, id, run_id, kind, line FROM ${eventsTable} WHERE ledger = $1 ORDER BY seq`,
    [location.ledger],
  );
  const verifier = new ChainVerifier(emptyHead);
  let count = 0;
  let headFound = keptHead === undefined;
  const bad = (
    seq: number,
    reason: string,
    code: 'LEDGER_CORRUPT' | 'LEDGER_UNAVAILABLE' = 'LEDGER_CORRUPT',
  ) => ({ ok: false, count, seq, reason, code }) as const;
  for (;;) {
    const { rows } = await client.query<Row>({
      text: `FETCH ${fetchSize} FROM toolgate_verify`,
      rowMode: 'array',
    });
    for (const [seq, id, runId, kind, line] of rows) {
      const checked = verifier.check(line);
      if (isFault(checked)) {
        await client.query('ROLLBACK');
        return bad(checked.seq, checked.reason, checked.code);
      }
      if (
        Number(seq) !== checked.seq ||
        id !== checked.id ||
        runId !== checked.runId ||
        kind !== checked.kind
      ) {
        await client.query('ROLLBACK');
        return bad(
          checked.seq,
          'its seq, id, run or kind column disagrees with the record: the row was edited after it was written',
        );
      }
      if (checked.hash === keptHead) headFound = true;
      count++;
    }
    if (rows.length < fetchSize) break;
  }
  await client.query('COMMIT');
  await waitDurable(client); // what it verified cannot be lost in a crash
  const stored = head.rows[0];
  const last = verifier.head;
  if (!stored || Number(stored.next_seq) !== last.seq || stored.hash !== last.hash) {
    return bad(
      count,
      `the head row says the ledger ends before seq ${stored?.next_seq ?? '?'} with hash ${stored?.hash ?? '?'}, ` +
        `but the records end before seq ${last.seq}: records were cut from its end or the head was edited`,
    );
  }
  if (!headFound) {
    return bad(
      count,
      `no record has the kept head hash ${keptHead}: the ledger ends at seq ${count - 1}, ` +
        'so records were cut from its end (or the head is from another ledger)',
    );
  }
  return { ok: true, count, last: count === 0 ? undefined : { seq: count - 1, hash: last.hash } };
}
