/**
 * @toolgate/ledger/internal: what the ledger's sibling packages (`@toolgate/ledger-postgres`,
 * `@toolgate/ledger-cli`) build on — sealing a draft onto a head, the streaming chain check, the
 * clock stamp. Not part of the public API: it changes without a major version.
 *
 * @module
 */
export {
  ChainVerifier,
  checkDraft,
  isFault,
  type SealedEvent,
  sealEvent,
  stamper,
} from './chain/index.js';
