/**
 * @toolgate/builtins: the standard tools, each a typed tool over an Environment.
 *
 * @module
 */
export { drawOmen, omens, oracleTool } from './oracle.js';
