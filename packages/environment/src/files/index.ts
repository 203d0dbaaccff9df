/**
 * Files in a root: read, write and list through the confined walk (hard links refused, line selection), glob and resolve.
 *
 * @module
 */
export { selectLines } from './lines.js';
export { listLocalDirectory, readLocalFile, writeLocalFile } from './local-files.js';
export { globLocal } from './local-glob.js';
export { resolveLocalPath } from './local-resolve.js';
