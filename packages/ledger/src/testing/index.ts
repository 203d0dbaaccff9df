/**
 * @toolgate/ledger/testing: what tests of the ledger's sibling packages (and of a store of your own)
 * share — the `LedgerStore` contract suite, temporary files, sample ledgers written through the real
 * gate, recorder and file store, and what tests against a real PostgreSQL share (the server to use,
 * the rule that CI never skips them, fresh ledger names, a process without `pg`). Runs under vitest.
 *
 * @module
 */
export { temporaryFiles } from './files.js';
export {
  freshLedgerName,
  freshLedgerUrl,
  postgresSkipReason,
  postgresUrl,
  requirePostgresInContinuousIntegration,
  withoutPgImport,
} from './postgres.js';
export { writeSampleLedger } from './sample.js';
export { storeContract } from './store-contract.js';
export { counter } from './tools.js';
export { hostileSeed, openScenarioWriter, writeViewerLedger } from './viewer-ledger.js';
