export { deepLedger, ledgerWithReplacementCharacter, withFfForReplacement } from './crafted.js';
/**
 * @toolgate/ledger/testing: what tests of the ledger's sibling packages (and of a store of your own)
 * share — the `LedgerStore` contract suite, temporary files, sample ledgers written through the real
 * gate, recorder and file store. Runs under vitest.
 *
 * @module
 */
export { temporaryFiles } from './files.js';
export { type LargeLedger, writeLargeLedger } from './large-ledger.js';
export { writeSampleLedger } from './sample.js';
export { storeContract } from './store-contract.js';
export { counter, oracle } from './tools.js';
export { hostileSeed, openScenarioWriter, writeViewerLedger } from './viewer-ledger.js';
