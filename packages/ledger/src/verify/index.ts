/**
 * Verification: a ledger's text or file checked record by record in linear time and flat memory,
 * on worker threads when asked, naming the first bad record.
 *
 * @module
 */
export type { TornTail } from './scan.js';
export { type VerifyOptions, type VerifyResult, verifyLedgerFile, verifyLedgerText } from './verify.js';
