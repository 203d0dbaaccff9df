/**
 * @toolgate/ledger-postgres/testing: what tests against a real PostgreSQL share — the server to use,
 * the rule that CI never skips them, fresh ledger names, and a process without `pg`.
 *
 * @module
 */
export {
  freshLedgerName,
  freshLedgerUrl,
  postgresSkipReason,
  postgresUrl,
  requirePostgresInContinuousIntegration,
  withoutPgImport,
} from './postgres.js';
