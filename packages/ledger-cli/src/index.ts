/**
 * @toolgate/ledger-cli: the `toolgate-ledger` command (verify, show, head, runs, serve, export) over
 * a JSONL ledger file or a PostgreSQL ledger, and its viewer — a read-only page of a ledger, live,
 * on loopback. The command is the product; this entry runs it in-process and serves the viewer
 * from code.
 *
 * @module
 */
export { type CliIo, exitCodes, main } from './cli/main.js';
export { serveLedgerDirectory } from './viewer/directory-server.js';
export { type LedgerViewer, type ServeLedgerOptions, serveLedger } from './viewer/server.js';
