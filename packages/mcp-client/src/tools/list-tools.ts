import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolgateError } from '@toolgate/core';
import { z } from 'zod';

/** How many `tools/list` pages a server may answer with before its list is refused as endless. */
export const maxToolPages = 1000;

// Each tool is read (and, if need be, withheld) one by one by the resolver, so one bad tool
// cannot fail the whole page the way the SDK's strict ListToolsResultSchema would.
const anyResult = z.object({}).loose();

/**
 * Every tool a server lists, paging through `tools/list`, each as the server sent it. A page that is
 * not `{ tools: [...], nextCursor? }` rejects with INVALID_DEFINITION; a cursor the server already
 * gave, or more than {@link maxToolPages} pages, rejects with TRANSPORT_FAILED — never a partial list.
 * It never calls the SDK's `listTools`, so no server `outputSchema` is compiled on this side.
 * `onPage` sees each page as it arrives (to enforce limits over the whole list before it is held).
 */
export async function listToolPages(
  client: Client,
  server: string,
  timeoutMs: number,
  onPage: (tools: readonly unknown[]) => void = () => {},
  pageLimit = maxToolPages,
): Promise<unknown[]> {
  const tools: unknown[] = [];
  const cursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 1; ; page++) {
    const result = await client.request(
      { method: 'tools/list', params: cursor === undefined ? {} : { cursor } },
      anyResult,
      { timeout: timeoutMs },
    );
    const { tools: listed, nextCursor } = result as { tools?: unknown; nextCursor?: unknown };
    if (!Array.isArray(listed) || (nextCursor !== undefined && typeof nextCursor !== 'string')) {
      throw new ToolgateError(
        'INVALID_DEFINITION',
        `MCP server "${server}" answered tools/list (page ${page}) with something that is not a tool list ` +
          '({ tools: [...], nextCursor?: string }); fix the server, then attach it again',
      );
    }
    onPage(listed);
    tools.push(...listed);
    if (nextCursor === undefined) return tools;
    if (cursors.has(nextCursor)) {
      throw new ToolgateError(
        'TRANSPORT_FAILED',
        `MCP server "${server}" repeated the cursor ${JSON.stringify(nextCursor.slice(0, 100))} on page ${page} ` +
          'of tools/list, so its list never ends; none of it is used — fix the server',
      );
    }
    if (page >= pageLimit) {
      throw new ToolgateError(
        'TRANSPORT_FAILED',
        `MCP server "${server}" listed its tools over more than ${pageLimit} pages of tools/list; ` +
          'none of the list is used — fix the server',
      );
    }
    cursors.add(nextCursor);
    cursor = nextCursor;
  }
}
