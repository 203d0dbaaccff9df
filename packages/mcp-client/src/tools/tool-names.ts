import { ToolgateError } from '@toolgate/core';
import type { McpConnection } from '../transport/connection.js';
import type { Entry } from './tool-index.js';

/** The name a remote tool is served under: `prefix__remoteName` when its server has a prefix. */
export function localName(connection: McpConnection, remoteName: string): string {
  const prefix = connection.config.prefix;
  return prefix === undefined ? remoteName : `${prefix}__${remoteName}`;
}

/** The error for a name no attached server serves. */
export function unknownTool(name: string): ToolgateError {
  return new ToolgateError(
    'UNKNOWN_TOOL',
    `no attached MCP server serves a tool named ${JSON.stringify(name)}`,
  );
}

/**
 * The error for a tool a server listed but that is not served because it broke a limit (its
 * reason), or undefined when no server withheld `name`.
 */
export function withheldTool(connections: Iterable<McpConnection>, name: string): ToolgateError | undefined {
  for (const connection of connections) {
    const prefix = connection.config.prefix;
    if (prefix !== undefined && !name.startsWith(`${prefix}__`)) continue;
    const remoteName = prefix === undefined ? name : name.slice(prefix.length + 2);
    const reason = connection.withheld(remoteName);
    if (reason !== undefined) {
      return new ToolgateError(
        'UNKNOWN_TOOL',
        `tool "${name}" on MCP server "${connection.name}" is not served: ${reason}`,
      );
    }
  }
  return undefined;
}

/**
 * Throws INVALID_DEFINITION when one of the `tools` a server lists at attach time would be served
 * under a name another server already serves.
 */
export function checkConflicts(
  entries: ReadonlyMap<string, Entry>,
  connection: McpConnection,
  tools: readonly unknown[],
): void {
  for (const tool of tools) {
    const remoteName = (tool as { name?: unknown } | null)?.name;
    if (typeof remoteName !== 'string') continue;
    const name = localName(connection, remoteName);
    const other = entries.get(name);
    if (other && other.connection !== connection) {
      throw new ToolgateError(
        'INVALID_DEFINITION',
        `MCP servers "${other.connection.name}" and "${connection.name}" both serve a tool named "${name}"; ` +
          'give one of them a prefix (its tools are then served as prefix__name)',
      );
    }
  }
}

/** The other server (and its prefix) whose prefix `name` starts with, if any: `server` may not serve it. */
export function prefixOwner(
  connections: Iterable<McpConnection>,
  name: string,
  server: string,
): { server: string; prefix: string } | undefined {
  for (const connection of connections) {
    const prefix = connection.config.prefix;
    if (connection.name !== server && prefix !== undefined && name.startsWith(`${prefix}__`)) {
      return { server: connection.name, prefix };
    }
  }
  return undefined;
}
