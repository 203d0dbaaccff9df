/**
 * @toolgate/ledger: a tamper-evident, crash-safe ledger of every tool call, policy decision and
 * result; verification that names the first bad record; and replay of a recorded run with every
 * tool switched off.
 *
 * @module
 */
export { canonicalJson, sha256Hex } from './chain/canonical.js';
export { type ChainHead, emptyHead } from './chain/chain.js';
export type { Clock } from './chain/chain-state.js';
export { steppingClock } from './chain/clock.js';
export {
  type EventDraft,
  eventKindPattern,
  genesisHash,
  type LedgerEvent,
  ledgerEventSchema,
  ledgerSchemaVersion,
} from './chain/event.js';
export { type Durability, FileStore, type FileStoreOptions } from './file/file-store.js';
export { type ReadLedgerFileOptions, readLedgerFile } from './file/read-file.js';
export { MemoryStore, type MemoryStoreOptions } from './memory-store.js';
export { LedgerRecorder, type LedgerRecorderOptions } from './recorder.js';
export { replayRegistry } from './replay/registry.js';
export { type Divergence, type ReplayMode, type ReplayOptions, ReplaySession } from './replay/session.js';
export { RunIndex, type RunSummary, runsOf } from './runs.js';
export { type FollowOptions, type LedgerStore, type ReadOptions, readAll } from './store.js';
export type { TornTail } from './verify/scan.js';
export {
  type VerifyOptions,
  type VerifyResult,
  verifyLedgerFile,
  verifyLedgerText,
} from './verify/verify.js';
export type { SurrogateReplacement } from './well-formed.js';
