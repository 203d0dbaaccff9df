/**
 * @toolgate/ledger-postgres/testing: what tests against a real PostgreSQL share — the server to use,
 * the rule that CI never skips them, and fresh ledger names.
 *
 * @module
 */
export {
  freshLedgerName,
  freshLedgerUrl,
  postgresSkipReason,
  postgresUrl,
  requirePostgresInContinuousIntegration,
} from './postgres.js';
