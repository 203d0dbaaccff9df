import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { messageOf } from '@toolgate/core';
import type { McpServerConfig } from '@toolgate/mcp-client';
import type { Gateway } from '../gateway.js';

/** At most this many pages of one upstream's list are read, and this many items kept. */
const maxPages = 100;
const maxItems = 10_000;

/** The key of an upstream in prompt names and resource grants: its prefix, or its name without one. */
export function upstreamKey(server: McpServerConfig): string {
  return server.prefix ?? server.name;
}

/** A name as the gateway serves it: `prefix__name`, or the name itself for an upstream without a prefix. */
export function servedName(server: McpServerConfig, name: string): string {
  return server.prefix === undefined ? name : `${server.prefix}__${name}`;
}

/** One page of an upstream's list. */
export interface Page<T> {
  items: T[];
  nextCursor?: string | undefined;
}

/**
 * Every item of a paged list of one upstream (bounded: {@link maxPages} pages, {@link maxItems} items).
 */
export async function collectPages<T>(
  fetchPage: (cursor: string | undefined) => Promise<Page<T>>,
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page += 1) {
    const next = await fetchPage(cursor);
    items.push(...next.items.slice(0, maxItems - items.length));
    cursor = next.nextCursor;
    if (cursor === undefined || items.length >= maxItems) break;
  }
  return items;
}

/**
 * The list `list` makes of every upstream that declares `capability`, in config order. An upstream
 * that cannot answer is left out of this list and told to the operator's log (the others still answer).
 */
export async function eachUpstream<T>(
  gateway: Gateway,
  capability: 'prompts' | 'resources' | 'completions' | 'logging',
  during: string,
  list: (client: Client, timeoutMs: number) => Promise<T[]>,
  only: readonly McpServerConfig[] = gateway.config.servers,
): Promise<Array<{ server: McpServerConfig; items: T[] }>> {
  const lists = await Promise.all(
    only.map(async (server) => {
      try {
        const items = await gateway.resolver.request(server.name, during, (client, timeoutMs) =>
          client.getServerCapabilities()?.[capability] === undefined
            ? Promise.resolve([])
            : list(client, timeoutMs),
        );
        return { server, items };
      } catch (error) {
        gateway.log(`upstream "${server.name}": ${during}: ${messageOf(error)}`);
        return { server, items: [] as T[] };
      }
    }),
  );
  return lists.filter((entry) => entry.items.length > 0);
}
