/**
 * @toolgate/ledger/internal: what the ledger's sibling packages (`@toolgate/ledger-postgres`,
 * `@toolgate/ledger-cli`) build on — sealing a draft onto a head, the streaming chain check, the
 * clock stamp. Not part of the public API: it changes without a major version.
 *
 * @module
 */
export {
  type ChainFault,
  ChainVerifier,
  checkDraft,
  faultError,
  isFault,
  type SealedEvent,
  sealEvent,
  stamper,
} from './chain/index.js';
export { type Line, readLineBatches } from './file/index.js';
export { LedgerTree } from './ledger-tree.js';
