import type { LedgerEvent, ReadOptions, RunSummary } from '@toolgate/ledger';
import type { Pool, PoolClient } from 'pg';
import { eventsTable } from './schema.js';

/** How many records one read query fetches (reads page by seq, so they hold no transaction). */
const pageSize = 1000;

/** The stored events of a ledger that match, in seq order, page by page. */
export async function* readPages(
  database: Pool | PoolClient,
  ledger: string,
  options: ReadOptions,
): AsyncGenerator<LedgerEvent> {
  const filters: string[] = [];
  const values: unknown[] = [ledger, options.fromSeq ?? 0];
  if (options.runId !== undefined) {
    values.push(options.runId);
    filters.push(` AND run_id = $${values.length}`);
  }
  if (options.kind !== undefined) {
    values.push(options.kind);
    filters.push(` AND kind = $${values.length}`);
  }
  const sql =
    `SELECT seq, line FROM ${eventsTable} WHERE ledger = $1 AND seq >= $2${filters.join('')} ` +
    `ORDER BY seq LIMIT ${pageSize}`;
  for (;;) {
    const { rows } = await database.query<{ seq: string; line: string }>(sql, values);
    for (const row of rows) yield JSON.parse(row.line) as LedgerEvent;
    if (rows.length < pageSize) return;
    values[1] = Number(rows.at(-1)!.seq) + 1;
  }
}

/** The runs of a ledger, computed by the database. */
export async function queryRuns(database: Pool, ledger: string): Promise<RunSummary[]> {
  const { rows } = await database.query<{
    run_id: string;
    first_seq: string;
    last_seq: string;
    count: string;
    first_at: string;
    last_at: string;
  }>(
    `SELECT r.run_id, r.first_seq, r.last_seq, r.count, f.at AS first_at, l.at AS last_at
       FROM (SELECT run_id, min(seq) AS first_seq, max(seq) AS last_seq, count(*) AS count
               FROM ${eventsTable} WHERE ledger = $1 GROUP BY run_id) r
       JOIN ${eventsTable} f ON f.ledger = $1 AND f.seq = r.first_seq
       JOIN ${eventsTable} l ON l.ledger = $1 AND l.seq = r.last_seq
      ORDER BY r.first_seq`,
    [ledger],
  );
  return rows.map((row) => ({
    runId: row.run_id,
    firstSeq: Number(row.first_seq),
    lastSeq: Number(row.last_seq),
    firstAt: row.first_at,
    lastAt: row.last_at,
    count: Number(row.count),
  }));
}
