/**
 * @toolgate/ledger: a tamper-evident, crash-safe ledger of every tool call, policy decision and
 * result; verification that names the first bad record; and replay of a recorded run with every
 * tool switched off.
 *
 * @module
 */
export { canonicalJson, sha256Hex } from './canonical.js';
export { type ChainHead, emptyHead } from './chain.js';
export type { Clock } from './chain-state.js';
export { steppingClock } from './clock.js';
export {
  type EventDraft,
  eventKindPattern,
  genesisHash,
  type LedgerEvent,
  ledgerEventSchema,
  ledgerSchemaVersion,
} from './event.js';
export { type Durability, FileStore, type FileStoreOptions } from './file-store.js';
export { MemoryStore, type MemoryStoreOptions } from './memory-store.js';
export { type ReadLedgerFileOptions, readLedgerFile } from './read-file.js';
export { LedgerRecorder, type LedgerRecorderOptions } from './recorder.js';
export { replayRegistry } from './replay/registry.js';
export { type Divergence, type ReplayMode, type ReplayOptions, ReplaySession } from './replay/session.js';
export { RunIndex, type RunSummary, runsOf } from './runs.js';
export type { TornTail } from './scan.js';
export { type FollowOptions, type LedgerStore, type ReadOptions, readAll } from './store.js';
export { type VerifyOptions, type VerifyResult, verifyLedgerFile, verifyLedgerText } from './verify.js';
export type { SurrogateReplacement } from './well-formed.js';
