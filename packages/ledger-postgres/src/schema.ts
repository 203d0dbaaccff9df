import { genesisHash } from '@toolgate/ledger';
import type { ClientBase } from 'pg';
import { groupCommitObjects, groupCommitSchema } from './group-commit-schema.js';
import { eventsTable, headsTable } from './tables.js';

export { eventsTable, headsTable, notifyChannel } from './tables.js';

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

const schemaObjects = [headsTable, eventsTable, `${eventsTable}_run`, `${eventsTable}_kind`];

/**
 * Creates the tables and indexes when any is missing (under an advisory lock, so that writers
 * starting together do not race on CREATE; never when all exist, since CREATE INDEX IF NOT EXISTS
 * still locks the table against running appends), then the ledger's head row. Returns false when
 * `create` is off and the ledger is absent.
 */
export async function ensureLedger(client: ClientBase, ledger: string, create: boolean): Promise<boolean> {
  const found = await client.query<{ name: string | null }>(
    `SELECT CASE WHEN name LIKE '%(%' THEN to_regprocedure(name)::text ELSE to_regclass(name)::text END AS name
       FROM unnest($1::text[]) AS name`,
    [[...schemaObjects, ...groupCommitObjects]],
  );
  const missing = found.rows.map((row) => row.name === null);
  if (missing.slice(0, schemaObjects.length).some(Boolean)) {
    if (!create) return false;
    await createSchema(client, schema + groupCommitSchema);
  } else if (create && missing.some(Boolean)) {
    await createSchema(client, groupCommitSchema);
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
 * Creates group commit's table and function when missing: a database made before group commit,
 * its ledger opened with `create: false`, gets them at its first append.
 */
export async function ensureGroupCommit(client: ClientBase): Promise<void> {
  await createSchema(client, groupCommitSchema);
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
