/**
 * @toolgate/environment: the one seam through which toolgate's built-in tools touch files,
 * commands and the network. `LocalEnvironment` confines all of it to a root; `SandboxEnvironment`
 * also runs commands in a bubblewrap sandbox; `MemoryEnvironment`
 * serves the same contract from memory for tests and demos.
 *
 * @module
 */
export type {
  DirectoryEntry,
  DirectoryListing,
  EntryType,
  Environment,
  ExecLimit,
  ExecOptions,
  ExecResult,
  FetchRequest,
  FetchResponse,
  FileContent,
  GlobResult,
  ReadFileOptions,
  RedirectHop,
  ResolvedPath,
  SearchMatch,
  SearchOptions,
  SearchResult,
  WriteResult,
} from './environment.js';
export { defaultInheritedVariables } from './exec/index.js';
export {
  addressRange,
  type HostAddress,
  type HostResolver,
  isPublicAddress,
  systemResolver,
} from './fetch/index.js';
export { LocalEnvironment, type LocalEnvironmentOptions } from './local-environment.js';
export type { FileTree } from './memory/index.js';
export {
  type CommandHandler,
  type FetchHandler,
  MemoryEnvironment,
  type MemoryEnvironmentOptions,
} from './memory/index.js';
export {
  defaultProtectedPaths,
  type ProtectedPathsOption,
} from './paths/index.js';
export {
  defaultSandboxLimits,
  type EgressDestination,
  type EgressJudge,
  SandboxEnvironment,
  type SandboxEnvironmentOptions,
  type SandboxLimits,
  type SandboxUser,
} from './sandbox/index.js';
export { type SearchEngine, searchDefaults } from './search/index.js';
