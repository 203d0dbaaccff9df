import { setTimeout as sleep } from 'node:timers/promises';
import type { ClientBase } from 'pg';

/** How long to wait between looks at the flushed position (the WAL writer flushes every 200 ms by default). */
const pollMs = 10;

/**
 * Waits until the server's log is on disk past everything committed before this call, so that what
 * a reader saw cannot be lost in a crash (a seal commits before its flush: see `appendGrouped`).
 * Read-only: it compares `pg_current_wal_flush_lsn()` with the insert position. On a standby (in
 * recovery) it returns at once: a standby shows only what its primary flushed.
 */
export async function waitDurable(client: ClientBase): Promise<void> {
  const { rows } = await client.query<{ target: string | null }>(
    'SELECT CASE WHEN pg_is_in_recovery() THEN NULL ELSE pg_current_wal_insert_lsn()::text END AS target',
  );
  const target = rows[0]?.target;
  if (!target) return;
  for (;;) {
    const flushed = await client.query<{ done: boolean }>(
      'SELECT pg_current_wal_flush_lsn() >= $1::pg_lsn AS done',
      [target],
    );
    if (flushed.rows[0]?.done) return;
    await sleep(pollMs);
  }
}
