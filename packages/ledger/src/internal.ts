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
  faultError,
  isFault,
  type SealedEvent,
  sealEvent,
} from './chain/chain.js';
export { stamper } from './chain/chain-state.js';
export { checkDraft } from './chain/event.js';
