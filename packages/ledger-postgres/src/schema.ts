import { genesisHash } from '@toolgate/ledger';
import type { ClientBase } from 'pg';

/** The table of records: one canonical line a row, with the columns reads filter on. */
export const eventsTable = 'toolgate_ledger_events';
/** The table of heads: one row a ledger, locked by every append (it serialises them). */
export const headsTable = 'toolgate_ledger_heads';
/**
 * The table of drafts waiting to be sealed (UNLOGGED: a crash empties it, and the writers whose
 * drafts were in it were told their append failed). A writer puts its drafts here, then takes the
 * head lock; whoever holds it seals every waiting draft in one transaction (group commit).
 */
export const pendingTable = 'toolgate_ledger_pending';
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

const pendingSchema = `
CREATE UNLOGGED TABLE IF NOT EXISTS ${pendingTable} (
  n bigserial PRIMARY KEY,
  ledger text NOT NULL,
  owner integer NOT NULL,
  epoch timestamptz NOT NULL,
  draft_id text,
  at text NOT NULL,
  draft text NOT NULL,
  payload text NOT NULL,
  seq bigint
);
CREATE INDEX IF NOT EXISTS ${pendingTable}_ledger ON ${pendingTable} (ledger, n);
`;

const schemaObjects = [headsTable, eventsTable, `${eventsTable}_run`, `${eventsTable}_kind`];
const pendingObjects = [pendingTable, `${pendingTable}_ledger`];

/**
 * Creates the tables and indexes when any is missing (under an advisory lock, so that writers
 * starting together do not race on CREATE; never when all exist, since CREATE INDEX IF NOT EXISTS
 * still locks the table against running appends), then the ledger's head row. Returns false when
 * `create` is off and the ledger is absent.
 */
export async function ensureLedger(client: ClientBase, ledger: string, create: boolean): Promise<boolean> {
  const found = await client.query<{ name: string | null }>(
    'SELECT to_regclass(name) AS name FROM unnest($1::text[]) AS name',
    [[...schemaObjects, ...pendingObjects]],
  );
  const missing = found.rows.map((row) => row.name === null);
  if (missing.slice(0, schemaObjects.length).some(Boolean)) {
    if (!create) return false;
    await createSchema(client, schema + pendingSchema);
  } else if (create && missing.some(Boolean)) {
    await createSchema(client, pendingSchema);
  }
  const head = await client.query(`SELECT 1 FROM ${headsTable} WHERE ledger = $1`, [ledger]);
  if (head.rowCount === 1) return true;
  if (!create) return false;
  await client.query(
    `INSERT INTO ${headsTable} (ledger, next_seq, hash) VALUES ($1, 0, $2) ON CONFLICT (ledger) DO NOTHING`,
    [ledger, genesisHash],
  );
  return true;
}

/**
 * Creates the table of waiting drafts when it is missing: a ledger made before group commit, opened
 * with `create: false`, gets it at its first append.
 */
export async function ensurePendingTable(client: ClientBase): Promise<void> {
  await createSchema(client, pendingSchema);
}

async function createSchema(client: ClientBase, text: string): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query("SELECT pg_advisory_xact_lock(hashtext('toolgate_ledger_schema'))");
    await client.query(text);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
}
