/**
 * MemoryEnvironment: the same contract served from memory, for tests and demos.
 *
 * @module
 */
export {
  type CommandHandler,
  type FetchHandler,
  MemoryEnvironment,
  type MemoryEnvironmentOptions,
} from './memory-environment.js';
export type { FileTree } from './memory-tree.js';
