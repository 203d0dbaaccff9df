import type { EventDraft, LedgerEvent } from '@toolgate/ledger';
import pg from 'pg';
import { ledgerLocation } from './connection.js';

/** A stand-in for an appender that only makes one round trip to the server a call (for the bench). */
export interface RoundTripOnly {
  append(draft: EventDraft): Promise<LedgerEvent | undefined>;
  close(): Promise<void>;
}

/**
 * One `SELECT 1` a call on a connection of its own, and nothing stored: what no append of one round
 * trip can beat on a machine (the fleet bench's floor of a round trip, beside the appends).
 */
export function roundTripOnly(url: string): RoundTripOnly {
  const location = ledgerLocation(url);
  const pool = new pg.Pool({ connectionString: location.connectionString, max: 1 });
  return {
    async append() {
      await pool.query('SELECT 1');
      return undefined;
    },
    close: () => pool.end(),
  };
}
