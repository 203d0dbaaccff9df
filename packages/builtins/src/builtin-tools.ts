import type { Tool } from '@toolgate/core';
import type { Environment } from '@toolgate/environment';
import { defaultFieldLimits, type FieldLimits } from './caps.js';
import { fetchTool } from './fetch.js';
import { globTool } from './glob.js';
import { listDirTool } from './list-dir.js';
import { oracleTool } from './oracle.js';
import { readFileTool } from './read-file.js';
import { searchFilesTool } from './search-files.js';
import { shellTool } from './shell.js';
import { writeFileTool } from './write-file.js';

/** Caps and timeouts of the built-in tools; every one has a default. */
export interface BuiltinToolsOptions extends Partial<FieldLimits> {
  /**
   * The shell tool's timeout when the model asks none. Default: the time left to the call's
   * deadline (the caller's budget), 30,000 ms for a call with no deadline.
   */
  shellTimeoutMs?: number;
  /** The longest timeout a model may ask the shell tool for. Default 300,000 ms. */
  maxShellTimeoutMs?: number;
}

/**
 * The eight built-in tools over one environment: read_file, write_file, list_dir, glob,
 * search_files, shell, fetch and oracle. Register them all, or pick some by name.
 *
 * @example
 * const environment = new LocalEnvironment({ root: process.cwd() });
 * const registry = new ToolRegistry();
 * for (const tool of builtinTools(environment, { maxFieldChars: 10_000 })) registry.register(tool);
 */
export function builtinTools(environment: Environment, options: BuiltinToolsOptions = {}): Tool[] {
  const caps: FieldLimits = {
    maxFieldChars: options.maxFieldChars ?? defaultFieldLimits.maxFieldChars,
    maxMatches: options.maxMatches ?? defaultFieldLimits.maxMatches,
    maxEntries: options.maxEntries ?? defaultFieldLimits.maxEntries,
    maxLineChars: options.maxLineChars ?? defaultFieldLimits.maxLineChars,
  };
  const shell = {
    maxFieldChars: caps.maxFieldChars,
    ...(options.shellTimeoutMs === undefined ? {} : { shellTimeoutMs: options.shellTimeoutMs }),
    maxShellTimeoutMs: options.maxShellTimeoutMs ?? 300_000,
  };
  return [
    readFileTool(environment, caps),
    writeFileTool(environment),
    listDirTool(environment, caps),
    globTool(environment, caps),
    searchFilesTool(environment, caps),
    shellTool(environment, shell),
    fetchTool(environment, caps),
    oracleTool(),
  ] as Tool[];
}
