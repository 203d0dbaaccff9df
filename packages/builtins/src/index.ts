/**
 * @toolgate/builtins: the standard tools, each a typed tool over an Environment —
 * read_file, write_file, list_dir, glob, search_files, shell, fetch and oracle.
 *
 * @module
 */
export { type BuiltinToolsOptions, builtinTools } from './builtin-tools.js';
export { defaultFieldLimits, type FieldLimits } from './caps.js';
export {
  commandSubject,
  maxShellDepth,
  type ShellSubject,
  shellSubject,
  unsafeTokenPrefix,
} from './command-subject.js';
export { fetchTool } from './fetch.js';
export { globTool } from './glob.js';
export { listDirTool } from './list-dir.js';
export { drawOmen, omens, oracleTool } from './oracle.js';
export { policies } from './policies.js';
export { readFileTool } from './read-file.js';
export { searchFilesTool } from './search-files.js';
export { type ShellOptions, shellTool } from './shell.js';
export { writeFileTool } from './write-file.js';
