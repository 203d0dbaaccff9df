/**
 * @toolgate/ledger-postgres/testing: what tests against a real PostgreSQL share — the server to use,
 * the rule that CI never skips them, fresh ledger names — and the lock-per-append path of before
 * group commit (the fleet bench's baseline).
 *
 * @module
 */

export { type LockPerAppend, lockPerAppend } from '../lock-per-append.js';
export { type RoundTripOnly, roundTripOnly } from '../round-trip.js';
export {
  freshLedgerName,
  freshLedgerUrl,
  postgresSkipReason,
  postgresUrl,
  requirePostgresInContinuousIntegration,
} from './postgres.js';
