import type { ClientBase } from 'pg';
import { genesisHash } from '../event.js';

/** The table of records: one canonical line a row, with the columns reads filter on. */
export const eventsTable = 'toolgate_ledger_events';
/** The table of heads: one row a ledger, locked by every append (it serialises them). */
export const headsTable = 'toolgate_ledger_heads';
/** The channel appends notify on (the payload is the ledger's name). */
export const notifyChannel = 'toolgate_ledger';

const schema = `
CREATE TABLE IF NOT EXISTS ${headsTable} (
  ledger text PRIMARY KEY,
  next_seq bigint NOT NULL,
  hash text NOT NULL
);
CREATE TABLE IF NOT EXISTS ${eventsTable} (
  ledger text NOT NULL,
  seq bigint NOT NULL,
  id text NOT NULL,
  run_id text NOT NULL,
  kind text NOT NULL,
  at text NOT NULL,
  line text NOT NULL,
  PRIMARY KEY (ledger, seq),
  UNIQUE (ledger, id)
);
CREATE INDEX IF NOT EXISTS ${eventsTable}_run ON ${eventsTable} (ledger, run_id, seq);
CREATE INDEX IF NOT EXISTS ${eventsTable}_kind ON ${eventsTable} (ledger, kind, seq);
`;

/**
 * Creates the tables (once, under an advisory lock so that writers starting together do not race
 * on CREATE) and the ledger's head row. Returns false when `create` is off and the ledger is absent.
 */
export async function ensureLedger(client: ClientBase, ledger: string, create: boolean): Promise<boolean> {
  if (!create) {
    const table = await client.query('SELECT to_regclass($1) AS name', [headsTable]);
    if (table.rows[0]?.name === null) return false;
    const head = await client.query(`SELECT 1 FROM ${headsTable} WHERE ledger = $1`, [ledger]);
    return head.rowCount === 1;
  }
  await client.query('BEGIN');
  try {
    await client.query("SELECT pg_advisory_xact_lock(hashtext('toolgate_ledger_schema'))");
    await client.query(schema);
    await client.query(
      `INSERT INTO ${headsTable} (ledger, next_seq, hash) VALUES ($1, 0, $2) ON CONFLICT (ledger) DO NOTHING`,
      [ledger, genesisHash],
    );
    await client.query('COMMIT');
    return true;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
}
