/**
 * @toolgate/ledger-postgres/internal: what `@toolgate/ledger-cli` builds on — reading a
 * `postgres://…?ledger=NAME` location into its connection string, ledger name and a label without
 * credentials — and the lock-per-append path of before group commit (the fleet bench's baseline).
 * Not part of the public API: it changes without a major version.
 *
 * @module
 */
export { type LedgerLocation, ledgerLocation } from './connection.js';
export { type LockPerAppend, lockPerAppend } from './lock-per-append.js';
