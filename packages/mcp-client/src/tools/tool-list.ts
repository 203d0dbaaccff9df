import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { ToolgateError } from '@toolgate/core';
import { capText, type ParamHeader, scanParamHeaders } from '@toolgate/core/internal';
import { z } from 'zod';
import { formatBytes, type ResolvedLimits } from '../limits.js';

/** A listed tool that is not served, and why. */
export interface WithheldTool {
  /** Its name on the server. */
  remoteName: string;
  /** Which limit or rule it broke, as a sentence naming it. */
  reason: string;
}

/**
 * Stands in the collected list where a tool was withheld for breaking a limit (or the `x-mcp-header`
 * rules), so the tools are reported in the order the server listed them; nothing of the tool
 * itself is kept.
 */
export class OverLimitTool {
  constructor(
    /** Its name on the server. */
    readonly name: string,
    /** Which limit or rule it broke, as a sentence naming it. */
    readonly reason: string,
  ) {}
}

/**
 * Collects the pages of one `tools/list` under the server's limits. Throws TRANSPORT_FAILED naming
 * the server and the limit once the list has more than `maxTools` tools or more than `maxListBytes`
 * of JSON; withholds a tool whose input schema is larger than `maxSchemaBytes` or nests deeper than
 * `maxSchemaDepth`, or whose `x-mcp-header` declarations break MCP 2026-07-28's rules (SEP-2243: a
 * client must not call it); keeps the valid declarations of the others (`paramHeaders`, by remote
 * name); cuts a description (and title) at `maxDescriptionChars` with a marker. Keeps of
 * each tool only what is served (name, title, description, input schema, task support, annotations, icons,
 * output schema), so the rest of what a
 * server sends is never held.
 */
export class ToolListCollector {
  /** The tools to serve, each as listed but keeping only what is served; anything not an object as it came (the reader withholds it). */
  readonly tools: unknown[] = [];
  readonly withheld: WithheldTool[] = [];
  /** The `x-mcp-header` declarations of each served tool that has some, by its name on the server. */
  readonly paramHeaders = new Map<string, readonly ParamHeader[]>();
  readonly #server: string;
  readonly #limits: ResolvedLimits;
  #count = 0;
  #bytes = 0;

  constructor(server: string, limits: ResolvedLimits) {
    this.#server = server;
    this.#limits = limits;
  }

  /** Adds one page of tools; throws when the list passes a limit. */
  add(page: readonly unknown[]): void {
    const limits = this.#limits;
    for (const listed of page) {
      this.#count += 1;
      if (this.#count > limits.maxTools) {
        this.#fail(`lists more than ${limits.maxTools} tools (limits.maxTools)`);
      }
      const room = limits.maxListBytes - this.#bytes;
      const size = measureJson(listed, room + 1, Number.POSITIVE_INFINITY);
      this.#bytes += size.bytes;
      if (this.#bytes > limits.maxListBytes) {
        this.#fail(
          `lists more than ${formatBytes(limits.maxListBytes)} of tools over all its pages (limits.maxListBytes)`,
        );
      }
      if (typeof listed !== 'object' || listed === null || Array.isArray(listed)) {
        this.tools.push(listed);
        continue;
      }
      const tool = listed as McpTool;
      const read = this.#readSchema(tool.inputSchema);
      if ('reason' in read) {
        const { reason } = read;
        this.withheld.push({ remoteName: String(tool.name), reason });
        this.tools.push(new OverLimitTool(String(tool.name), reason));
        continue;
      }
      if (read.headers.length > 0) this.paramHeaders.set(String(tool.name), read.headers);
      this.tools.push(this.#served(tool));
    }
  }

  /** Why a tool with this input schema is withheld (a limit, its x-mcp-header declarations), or its declarations. */
  #readSchema(schema: unknown): { reason: string } | { headers: readonly ParamHeader[] } {
    const reason = this.#schemaProblem(schema);
    if (reason !== undefined) return { reason };
    const scan = scanParamHeaders(schema);
    return 'problem' in scan ? { reason: headerProblem(scan.problem) } : scan;
  }

  #schemaProblem(schema: unknown): string | undefined {
    const limits = this.#limits;
    const size = measureJson(schema, limits.maxSchemaBytes + 1, limits.maxSchemaDepth + 1);
    if (size.depth > limits.maxSchemaDepth) {
      return `its input schema nests deeper than ${limits.maxSchemaDepth} levels (limits.maxSchemaDepth)`;
    }
    if (size.bytes > limits.maxSchemaBytes) {
      return `its input schema is larger than ${formatBytes(limits.maxSchemaBytes)} (limits.maxSchemaBytes)`;
    }
    return undefined;
  }

  #served(tool: McpTool): McpTool {
    const max = this.#limits.maxDescriptionChars;
    const served: McpTool = { name: tool.name, inputSchema: tool.inputSchema };
    if (typeof tool.title === 'string') served.title = capText(tool.title, max).text;
    if (typeof tool.description === 'string') served.description = capText(tool.description, max).text;
    // Anything else is kept as listed, for the reader to withhold with its reason.
    else if (tool.description !== undefined) served.description = tool.description;
    // Kept so the reader can withhold a tool that can only be called as an MCP task.
    const taskSupport = (tool.execution as { taskSupport?: unknown } | undefined)?.taskSupport;
    if (taskSupport !== undefined) served.execution = { taskSupport } as McpTool['execution'];
    // Presentation passed on to clients (hints, never trusted); an output schema past the schema limits is dropped.
    if (tool.annotations !== undefined) served.annotations = tool.annotations;
    if (tool.icons !== undefined) served.icons = tool.icons;
    if (tool.outputSchema !== undefined && this.#schemaProblem(tool.outputSchema) === undefined) {
      served.outputSchema = tool.outputSchema;
    }
    return served;
  }

  #fail(why: string): never {
    throw new ToolgateError(
      'TRANSPORT_FAILED',
      `MCP server "${this.#server}" ${why}; its tools are not served. ` +
        'Raise the limit in its config (limits) if this server is trusted to list that much',
    );
  }
}

function headerProblem(problem: string): string {
  return (
    `its input schema breaks the x-mcp-header rules of MCP 2026-07-28 (SEP-2243): ${problem}; ` +
    "a client must not call it until the server's author fixes the declaration"
  );
}

/**
 * The length of `value` as JSON (strings counted without escapes) and its nesting depth, walked
 * without recursion so any depth is safe; the walk stops once `maxBytes` or `maxDepth` is passed.
 */
export function measureJson(
  value: unknown,
  maxBytes: number,
  maxDepth: number,
): { bytes: number; depth: number } {
  let bytes = 0;
  let depth = 0;
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 1 }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    const current = item.value;
    if (typeof current === 'string') bytes += current.length + 3;
    else if (typeof current === 'number') bytes += String(current).length + 1;
    else if (typeof current === 'boolean') bytes += 6;
    else if (current === null || typeof current !== 'object') bytes += 5;
    else {
      depth = Math.max(depth, item.depth);
      if (depth > maxDepth) return { bytes, depth };
      bytes += 2;
      if (Array.isArray(current)) {
        for (const element of current) stack.push({ value: element, depth: item.depth + 1 });
      } else {
        for (const key of Object.keys(current)) {
          bytes += key.length + 3;
          stack.push({ value: (current as Record<string, unknown>)[key], depth: item.depth + 1 });
        }
      }
    }
    if (bytes > maxBytes) return { bytes, depth };
  }
  return { bytes, depth };
}

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
  {
    server,
    timeoutMs,
    onPage = () => {},
    pageLimit = maxToolPages,
  }: {
    /** The server's name, for errors. */
    server: string;
    /** How long each page may take. */
    timeoutMs: number;
    onPage?: (tools: readonly unknown[]) => void;
    /** At most this many pages; default {@link maxToolPages}. */
    pageLimit?: number;
  },
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
