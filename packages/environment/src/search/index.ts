/**
 * Search: the pattern compiled, ripgrep where it reads the pattern alike, else JavaScript on a worker thread with a deadline, every line verified against the file opened inside the root, withheld paths never opened.
 *
 * @module
 */
export { searchLocal } from './local-search.js';
export { jobOptions } from './search-job.js';
export { prepareSearch, type SearchEngine, searchDefaults, searchTimeoutOf } from './search-prepare.js';
export { searchOffThread } from './search-thread.js';
