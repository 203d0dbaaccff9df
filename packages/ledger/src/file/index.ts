/**
 * The JSONL file ledger: `FileStore` (one writer, held by an OS lock on the file; group commit) and
 * `readLedgerFile` (a verifying reader, following a file another process writes).
 *
 * @module
 */
export { type Durability, FileStore, type FileStoreOptions } from './file-store.js';
export { type Line, readLineBatches } from './lines.js';
export type { OpenCheck } from './open-ledger-file.js';
export { type ReadLedgerFileOptions, readLedgerFile } from './read-file.js';
