/**
 * @toolgate/ledger-postgres/internal: what `@toolgate/ledger-cli` builds on — reading a
 * `postgres://…?ledger=NAME` location into its connection string, ledger name and a label without
 * credentials. Not part of the public API: it changes without a major version.
 *
 * @module
 */
export { type LedgerLocation, ledgerLocation } from './connection.js';
