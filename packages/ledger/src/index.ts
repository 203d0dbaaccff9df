/**
 * @toolgate/ledger: a tamper-evident, crash-safe ledger of every tool call, policy decision and
 * result; verification that names the first bad record; and replay of a recorded run with every
 * tool switched off. Checkpoints, keys and Merkle proofs, which need no store, are in
 * `@toolgate/ledger/trust`.
 *
 * @module
 */
export {
  type ChainHead,
  type Clock,
  canonicalJson,
  type EventDraft,
  emptyHead,
  eventKindPattern,
  genesisHash,
  type LedgerEvent,
  ledgerEventSchema,
  ledgerSchemaVersion,
  sha256Hex,
  steppingClock,
} from './chain/index.js';
export { Checkpointer, type CheckpointerOptions } from './checkpointer.js';
export {
  type BacktestChange,
  type BacktestChangeKind,
  type BacktestGroup,
  type BacktestOptions,
  type BacktestResult,
  type BacktestUnjudged,
  backtestDecisions,
  type DecisionFault,
  type DecisionsResult,
  type PolicyLayers,
  type PolicyRecordOptions,
  parametersDigest,
  policyDigest,
  policyRecordedKind,
  policyRecordPayload,
  type VerifyDecisionsOptions,
  verifyDecisions,
} from './decisions/index.js';
export {
  type Durability,
  FileStore,
  type FileStoreOptions,
  type OpenCheck,
  type ReadLedgerFileOptions,
  readLedgerFile,
} from './file/index.js';
export { recordLeaf, recordLeaves, recordLine, type TreeHead } from './ledger-tree.js';
export { MemoryStore, type MemoryStoreOptions } from './memory-store.js';
export { LedgerRecorder, type LedgerRecorderOptions } from './recorder.js';
export {
  type Divergence,
  type ReplayMode,
  type ReplayOptions,
  ReplaySession,
  replayRegistry,
} from './replay/index.js';
export { RunIndex, type RunSummary, runsOf } from './runs.js';
export {
  type AppendOptions,
  type FollowOptions,
  type LedgerStore,
  type ReadOptions,
  readAll,
} from './store.js';
export {
  type TornTail,
  type VerifyOptions,
  type VerifyResult,
  verifyLedgerFile,
  verifyLedgerText,
} from './verify/index.js';
export type { SurrogateReplacement } from './well-formed.js';
