import { builtinTools, oracleTool } from '@toolgate/builtins';
import { type Tool, ToolgateError, ToolRegistry } from '@toolgate/core';

/** What {@link registryFor} takes. */
export interface RegistryOptions {
  /** The workspace directory for the file and shell tools. Required when any is named. */
  root?: string | undefined;
}

/** The built-in tools that work on a workspace, and so need a root. */
export const workspaceToolNames: readonly string[] = Object.freeze([
  'read_file',
  'write_file',
  'list_dir',
  'glob',
  'search_files',
  'shell',
  'fetch',
]);

/**
 * A registry holding the named built-in tools, for `toolgate-mcp --tools`. `oracle` needs nothing;
 * the file and shell tools ({@link workspaceToolNames}) need a workspace `root`, which confines them.
 *
 * @example
 * const registry = await registryFor(['oracle', 'read_file'], { root: '/srv/workspace' });
 */
export async function registryFor(
  names: readonly string[],
  options: RegistryOptions = {},
): Promise<ToolRegistry> {
  const known = ['oracle', ...workspaceToolNames];
  const unknown = names.filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    throw new ToolgateError(
      'INVALID_DEFINITION',
      `unknown tool ${unknown.map((name) => JSON.stringify(name)).join(', ')}; available: ${known.join(', ')}`,
    );
  }
  const available = new Map<string, Tool>([['oracle', oracleTool() as unknown as Tool]]);
  const needRoot = names.filter((name) => workspaceToolNames.includes(name));
  if (needRoot.length > 0) {
    if (options.root === undefined) {
      throw new ToolgateError(
        'INVALID_DEFINITION',
        `tools ${needRoot.join(', ')} work on a workspace; pass --root DIR`,
      );
    }
    // Loaded only when needed, so serving the oracle alone starts faster.
    const { LocalEnvironment } = await import('@toolgate/environment');
    for (const tool of builtinTools(new LocalEnvironment({ root: options.root })))
      available.set(tool.name, tool);
  }
  const registry = new ToolRegistry();
  for (const name of new Set(names)) registry.register(available.get(name)!);
  return registry;
}
