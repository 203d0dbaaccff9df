import type { EventDraft, LedgerEvent } from '@toolgate/ledger';
import { stamper } from '@toolgate/ledger/internal';
import pg from 'pg';
import { appendBatch } from './append-transaction.js';
import { ledgerLocation } from './connection.js';

/** An appender that writes the way PostgresStore did before group commit (for the bench's baseline). */
export interface LockPerAppend {
  append(draft: EventDraft): Promise<LedgerEvent>;
  close(): Promise<void>;
}

/**
 * Appends to an existing ledger one transaction an append, each locking the head row through its
 * commit: PostgresStore's append path before group commit, kept so that the fleet bench measures
 * both in the same run. Not for use: it has no retry, no queue, no follow.
 */
export function lockPerAppend(url: string): LockPerAppend {
  const location = ledgerLocation(url);
  const pool = new pg.Pool({ connectionString: location.connectionString, max: 1 });
  const stamp = stamper(undefined);
  return {
    async append(draft) {
      const client = await pool.connect();
      try {
        const { outcomes } = await appendBatch(client, location.ledger, [draft], stamp);
        const outcome = outcomes[0]!;
        if (outcome instanceof Error) throw outcome;
        return outcome;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
