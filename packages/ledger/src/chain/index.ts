/**
 * The chain: the event envelope and its schema, canonical JSON (RFC 8785), sealing a draft onto a
 * head, and the check of one stored line against the head before it.
 *
 * @module
 */
export { canonicalJson, sha256Hex } from './canonical.js';
export {
  type ChainFault,
  type ChainHead,
  ChainVerifier,
  emptyHead,
  faultError,
  isFault,
  type SealedEvent,
  sealEvent,
} from './chain.js';
export { type Clock, stamper } from './chain-state.js';
export { steppingClock } from './clock.js';
export {
  checkDraft,
  type EventDraft,
  eventKindPattern,
  genesisHash,
  type LedgerEvent,
  ledgerEventSchema,
  ledgerSchemaVersion,
} from './event.js';
