/**
 * @toolgate/ledger-postgres: a toolgate ledger kept in PostgreSQL — one hash chain shared by many
 * writer processes on many machines (`PostgresStore`), and its verification in bounded memory
 * (`verifyPostgresLedger`).
 *
 * @module
 */
export { isPostgresUrl } from './connection.js';
export { PostgresStore, type PostgresStoreOptions } from './store.js';
export { type VerifyPostgresOptions, verifyPostgresLedger } from './verify.js';
