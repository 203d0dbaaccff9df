import type { ClientBase } from 'pg';

/** The shared approvals: one row per `ask` an operator answers, its status the truth. */
export const approvalsTable = 'toolgate_fleet_approvals';
/** The shared tool reviews: per tool the fingerprint an operator approved. */
export const reviewsTable = 'toolgate_fleet_reviews';
/** The channel NOTIFY wakes the instances on (the tables stay the truth; a lost wake-up only delays). */
export const fleetChannel = 'toolgate_fleet';

const schema = `
CREATE TABLE IF NOT EXISTS ${approvalsTable} (
  fleet text NOT NULL,
  id text NOT NULL,
  client text NOT NULL,
  tool text NOT NULL,
  parameters jsonb NOT NULL,
  reason text NOT NULL,
  instance text NOT NULL,
  asked_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  status text NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'approved', 'denied', 'expired', 'cancelled')),
  answered_by text,
  answer_reason text,
  answered_at timestamptz,
  PRIMARY KEY (fleet, id)
);
CREATE INDEX IF NOT EXISTS ${approvalsTable}_pending ON ${approvalsTable} (fleet, status, asked_at);
CREATE TABLE IF NOT EXISTS ${reviewsTable} (
  fleet text NOT NULL,
  tool text NOT NULL,
  fingerprint text NOT NULL,
  review jsonb,
  approved_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (fleet, tool)
);
`;

/**
 * Creates the fleet's tables when one is missing, under an advisory lock so that instances
 * starting together do not race on CREATE (and never takes the lock when both exist).
 */
export async function ensureFleetTables(client: ClientBase): Promise<void> {
  const found = await client.query<{ missing: boolean }>(
    'SELECT bool_or(to_regclass(name) IS NULL) AS missing FROM unnest($1::text[]) AS name',
    [[approvalsTable, reviewsTable, `${approvalsTable}_pending`]],
  );
  if (found.rows[0]?.missing !== true) return;
  await client.query('BEGIN');
  try {
    await client.query("SELECT pg_advisory_xact_lock(hashtext('toolgate_fleet_schema'))");
    await client.query(schema);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
}
