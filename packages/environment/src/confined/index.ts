/**
 * The confined walk: files opened by walking from a descriptor on the root, so a swapped symbolic link cannot lead out (by name, verified after each open, where there is no /proc/self/fd), and the confined tree a search reads.
 *
 * @module
 */
export { type ConfinedFile, confinedFiles } from './confined-tree.js';
export {
  type ConfinedRoot,
  type DirectoryStep,
  describeRoot,
  openChild,
  openRoot,
  openSubdirectory,
  PathChangedError,
  walkDirectories,
} from './confined-walk.js';
