import { builtinTools, oracleTool } from '@toolgate/builtins';
import { type Tool, ToolgateError, ToolRegistry } from '@toolgate/core';
import type { SandboxEnvironment } from '@toolgate/environment';

/** What {@link registryFor} takes. */
export interface RegistryOptions {
  /** The workspace directory for the file and shell tools. Required when any is named. */
  root?: string | undefined;
  /**
   * Run the workspace tools over a {@link SandboxEnvironment} (commands in bubblewrap) instead of a
   * LocalEnvironment, which scopes paths but lets `shell` read anything its user can. Fails when the
   * sandbox cannot be created; never falls back.
   */
  sandbox?: boolean;
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
 * the file and shell tools ({@link workspaceToolNames}) need a workspace `root`, which scopes their
 * paths (commands can still read anything their user can, unless `sandbox` is set).
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
    const { LocalEnvironment, SandboxEnvironment } = await import('@toolgate/environment');
    const environment = options.sandbox
      ? new SandboxEnvironment({ root: options.root })
      : new LocalEnvironment({ root: options.root });
    for (const tool of builtinTools(environment)) available.set(tool.name, tool);
  }
  const registry = new ToolRegistry();
  for (const name of new Set(names)) registry.register(available.get(name)!);
  return registry;
}
