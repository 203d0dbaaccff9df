import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolgateError } from '@toolgate/core';
import type { ToolExtras } from '../tools/read-tool.js';
import type { Entry } from '../tools/tool-index.js';
import type { McpConnection } from '../transport/index.js';

/** Each attached server and whether its session is open now. */
export function upstreamsOf(
  connections: ReadonlyMap<string, McpConnection>,
): Array<{ server: string; open: boolean }> {
  return [...connections].map(([server, connection]) => ({ server, open: connection.open }));
}

/** A served tool's hints as last listed; undefined while it awaits approval. */
export function extrasOf(entry: Entry | undefined): ToolExtras | undefined {
  return entry === undefined || entry.changed ? undefined : entry.extras;
}

/** Sends a request of a server's wider surface on its session; UNKNOWN_TOOL for a server not attached. */
export function requestOn<T>(
  connection: McpConnection | undefined,
  server: string,
  during: string,
  send: (client: Client, timeoutMs: number) => Promise<T>,
): Promise<T> {
  if (connection === undefined) {
    return Promise.reject(new ToolgateError('UNKNOWN_TOOL', `no MCP server named "${server}" is attached`));
  }
  return connection.request(during, send);
}

/**
 * Who a resolver asks and what each serves, for the error when a granted tool is served by none of
 * them: `the MCP servers attached ("files": read_file, list_dir)`.
 */
export function servingSummary(
  connections: ReadonlyMap<string, McpConnection>,
  entries: ReadonlyMap<string, Entry>,
): string {
  if (connections.size === 0) return 'an MCP resolver with no server attached';
  const served = new Map<string, string[]>([...connections.keys()].map((server) => [server, []]));
  for (const [name, entry] of entries) served.get(entry.connection.name)?.push(name);
  const parts = [...served].map(
    ([server, tools]) => `"${server}": ${tools.length ? tools.join(', ') : 'no tools'}`,
  );
  return `the MCP servers attached (${parts.join('; ')})`;
}
