/**
 * The command line of toolgate's commands (`toolgate-mcp`, `toolgate-gateway`, `toolgate-ledger`,
 * the demo): arguments parsed alike, whole numbers read alike, usage errors worded alike.
 *
 * @module
 */
export type { OptionShape } from './dash-values.js';
export { parseCommandLine } from './parse-command-line.js';
export { usageMessage } from './usage-message.js';
export { wholeNumber } from './whole-number.js';
