import type { ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import { type Tool as McpTool, ProtocolError, ProtocolErrorCode, Server } from '@modelcontextprotocol/server';
import { type CallOptions, type Tool, type ToolGate, ToolgateError } from '@toolgate/core';
import { callerDeadline } from '../caller-time.js';
import { exposedTools } from '../create-server.js';
import { callExposed, toMcpTool } from '../expose.js';
import { exposedGrant } from '../exposed-grant.js';
import { packageVersion } from '../package-version.js';
import { progressNotifier } from '../progress-notifier.js';

/** What `modernHandler` takes: the tools served, as for `createMcpServer`. */
export interface ModernServerOptions {
  /** The registry tools to expose, by name: these and only these. */
  tools: readonly string[];
  /** The server name sent in `server/discover` and each result's `_meta`. Default `toolgate-mcp`. */
  name?: string;
  /** The server version. Default: this package's version. */
  version?: string;
  /** The agent name the registry sees for remote calls. Default `mcp-client`. */
  agent?: string;
  /** Tools per `tools/list` page. Default 100. */
  pageSize?: number;
}

/**
 * How long a client may keep a `tools/list` page of toolgate-mcp: the tools it serves are fixed for
 * the process's life, but a client reconnecting to a restarted server should see a changed set soon.
 */
export const toolListTtlMs = 60_000;

/**
 * An MCP server of the 2026-07-28 revision (`@modelcontextprotocol/server`, the SDK's 2.x line)
 * exposing the named tools of `gate`'s registry through that gate, exactly as `createMcpServer` does
 * for 2025-11-25 clients: the same grant, the same tool shapes, the same results. A fresh one serves
 * each request (nothing is kept between requests, so any instance can answer any request).
 * `tools/list` pages carry `ttlMs` and `cacheScope: "private"` (a list is what one credential may
 * see, never to be shared through a public cache).
 *
 * @example
 * const modern = await modernHttpHandler(() => createModernMcpServer(gate, { tools: ['oracle'] }));
 */
export function createModernMcpServer(gate: ToolGate, options: ModernServerOptions): Server {
  const tools: Tool[] = exposedTools(gate.registry, options.tools);
  const listed = modernTools(gate, options);
  const pageSize = options.pageSize ?? 100;
  if (!Number.isInteger(pageSize) || pageSize < 1) {
    throw new ToolgateError('INVALID_DEFINITION', `pageSize must be a positive integer, not ${pageSize}`);
  }
  const serverName = options.name ?? 'toolgate-mcp';
  const grant = exposedGrant({
    agent: options.agent ?? 'mcp-client',
    tools: tools.map((tool) => tool.name),
    server: serverName,
  });
  const server = new Server(
    { name: serverName, version: options.version ?? packageVersion },
    { capabilities: { tools: { listChanged: false } } },
  );
  server.setRequestHandler('tools/list', (request) => {
    const start = pageStart(request.params?.cursor);
    const page = listed.slice(start, start + pageSize);
    const next = start + pageSize < listed.length ? { nextCursor: String(start + pageSize) } : {};
    return { tools: page, ...next, ttlMs: toolListTtlMs, cacheScope: 'private' as const };
  });
  server.setRequestHandler('tools/call', async (request, context) => {
    const progressToken = request.params._meta?.progressToken;
    const send = context.mcpReq.notify as (notification: ServerNotification) => Promise<void>;
    const progress: Pick<CallOptions, 'onProgress'> =
      progressToken === undefined ? {} : { onProgress: progressNotifier(progressToken, send) };
    const result = await callExposed({
      gate,
      grant,
      tool: request.params.name,
      parameters: request.params.arguments,
      options: {
        signal: context.mcpReq.signal,
        // the time the client waits (a toolgate client says so, as over 2025-11-25): the call ends by then
        deadline: callerDeadline(request.params._meta),
        ...progress,
      },
    });
    // The 1.x and 2.x result types describe the same JSON; the content blocks are built by expose.ts.
    return result as never;
  });
  return server;
}

/**
 * The tools `tools/list` serves a 2026-07-28 client: the same shapes as the 2025-11-25 server's
 * (the 2.x type reads their JSON Schema stricter).
 */
export function modernTools(gate: ToolGate, options: Pick<ModernServerOptions, 'tools'>): McpTool[] {
  return exposedTools(gate.registry, options.tools).map(toMcpTool) as McpTool[];
}

function pageStart(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const start = Number(cursor);
  if (!/^\d+$/.test(cursor) || !Number.isSafeInteger(start)) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `invalid tools/list cursor ${JSON.stringify(cursor)}`,
    );
  }
  return start;
}
