import { ToolgateError } from '@toolgate/core';
import type { LedgerEvent } from '@toolgate/ledger';
import { readLedgerFile, verifyLedgerFile } from '@toolgate/ledger';
import type { ViewerSnapshot, ViewerStatus } from './snapshot.js';

/**
 * Verifies a ledger file the way `toolgate-ledger verify` does and says what it found, never
 * throwing: a ledger that cannot be read is a status too.
 */
export async function ledgerStatus(file: string): Promise<ViewerStatus> {
  try {
    const result = await verifyLedgerFile(file);
    if (result.ok) return { state: 'verified', count: result.count, last: result.last };
    if (result.code === 'LEDGER_UNAVAILABLE') return { state: 'unreadable', message: result.reason };
    return { state: 'corrupt', seq: result.seq, reason: result.reason };
  } catch (error) {
    return { state: 'unreadable', message: messageOf(error) };
  }
}

/**
 * Reads a whole ledger file for a static page: its verification and every record that verified
 * (those before the first bad one). Never throws for a bad or missing ledger.
 */
export async function loadLedger(file: string): Promise<ViewerSnapshot> {
  const status = await ledgerStatus(file);
  const events: LedgerEvent[] = [];
  if (status.state !== 'unreadable') {
    try {
      for await (const event of readLedgerFile(file)) events.push(event);
    } catch {
      // The reader stops at the first bad record, which the status already names.
    }
  }
  return { file, status, events, live: false };
}

function messageOf(error: unknown): string {
  return ToolgateError.is(error) || error instanceof Error ? error.message : String(error);
}
