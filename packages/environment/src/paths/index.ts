/**
 * Path rules: workspace-relative paths, glob patterns checked, the protected paths (.git, .envrc …).
 *
 * @module
 */
export {
  assertGlobPattern,
  assertPathText,
  comparePaths,
  isInside,
  outsideRoot,
  pathKeptChanging,
  pathMatcher,
  relativePosix,
} from './path-rules.js';
export {
  defaultProtectedPaths,
  isProtected,
  type ProtectedPathsOption,
  protectedPathList,
  protectedPathRefused,
  withGitDirectories,
} from './protected-paths.js';
