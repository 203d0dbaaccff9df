import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool as McpTool,
  type ServerNotification,
} from '@modelcontextprotocol/sdk/types.js';
import {
  defaultMaxContentBytes,
  type RegistryCallOptions,
  type Tool,
  ToolgateError,
  type ToolRegistry,
} from '@toolgate/core';
import { callExposed, toMcpTool } from './expose.js';
import { packageVersion } from './package-version.js';
import { progressNotifier } from './progress-notifier.js';

/** What {@link createMcpServer} takes. */
export interface McpServerOptions {
  /** The registry tools to expose, by name: these and only these. Each must be registered in-process. */
  tools: readonly string[];
  /** The server name sent in the MCP handshake. Default `toolgate-mcp`. */
  name?: string;
  /** The server version sent in the MCP handshake. Default: this package's version. */
  version?: string;
  /** The agent name the registry sees for remote calls. Default `mcp-client`. */
  agent?: string;
  /** Tools per `tools/list` page. Default 100. */
  pageSize?: number;
  /** The cap on one output's JSON text, and on each text content part, in characters. Default 100,000. */
  maxOutputChars?: number;
  /**
   * The cap on one binary content part (image, audio, embedded blob), in decoded bytes; a part over
   * it is replaced by a text part saying what was omitted. Default 5 MiB.
   */
  maxContentBytes?: number;
}

/**
 * An MCP server exposing the named registry tools — and only those. Calls go through the registry
 * with a grant of exactly `tools`, so a tool the list does not name cannot be called; failures come
 * back as `isError` results. A client's `notifications/cancelled` aborts the tool's signal; a
 * client that sends a progress token gets the tool's progress reports as `notifications/progress`. The server is not connected: pass it to a transport (one per
 * connection or, over stateless HTTP, one per request).
 *
 * @example
 * const registry = new ToolRegistry().register(oracleTool());
 * const server = createMcpServer(registry, { tools: ['oracle'] });
 * await server.connect(new StdioServerTransport());
 */
export function createMcpServer(registry: ToolRegistry, options: McpServerOptions): Server {
  const tools = exposedTools(registry, options.tools);
  const listed: McpTool[] = tools.map(toMcpTool);
  const pageSize = options.pageSize ?? 100;
  if (!Number.isInteger(pageSize) || pageSize < 1) {
    throw new ToolgateError('INVALID_DEFINITION', `pageSize must be a positive integer, not ${pageSize}`);
  }
  const serverName = options.name ?? 'toolgate-mcp';
  const grant = {
    agent: options.agent ?? 'mcp-client',
    tools: tools.map((tool) => tool.name),
    server: serverName,
  };
  const caps = {
    maxOutputChars: options.maxOutputChars ?? 100_000,
    maxContentBytes: options.maxContentBytes ?? defaultMaxContentBytes,
  };
  const server = new Server(
    { name: serverName, version: options.version ?? packageVersion },
    { capabilities: { tools: { listChanged: false } } },
  );
  server.setRequestHandler(ListToolsRequestSchema, (request) => {
    const start = pageStart(request.params?.cursor);
    const page = listed.slice(start, start + pageSize);
    const next = start + pageSize < listed.length ? { nextCursor: String(start + pageSize) } : {};
    return { tools: page, ...next };
  });
  server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
    callExposed(registry, grant, request.params.name, request.params.arguments, caps, {
      signal: extra.signal,
      ...progressTo(request.params._meta?.progressToken, extra.sendNotification),
    }),
  );
  return server;
}

/** The named in-process tools, in the order given; an unknown or repeated name is an error. */
export function exposedTools(registry: ToolRegistry, names: readonly string[]): Tool[] {
  if (names.length === 0) {
    throw new ToolgateError('INVALID_DEFINITION', 'no tools to expose; name at least one in "tools"');
  }
  const seen = new Set<string>();
  return names.map((name) => {
    const tool = registry.get(name);
    if (!tool) {
      const known = registry.names();
      throw new ToolgateError(
        'INVALID_DEFINITION',
        `cannot expose tool ${JSON.stringify(name)}: it is not registered in-process ` +
          `(registered: ${known.length ? known.join(', ') : 'none'})`,
      );
    }
    if (seen.has(name)) throw new ToolgateError('INVALID_DEFINITION', `tool "${name}" is named twice`);
    seen.add(name);
    return tool;
  });
}

/** Progress reports sent to the client — only when it asked, with a progress token. */
function progressTo(
  progressToken: string | number | undefined,
  send: (notification: ServerNotification) => Promise<void>,
): Pick<RegistryCallOptions, 'onProgress'> {
  return progressToken === undefined ? {} : { onProgress: progressNotifier(progressToken, send) };
}

function pageStart(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const start = Number(cursor);
  if (!/^\d+$/.test(cursor) || !Number.isSafeInteger(start)) {
    throw new McpError(ErrorCode.InvalidParams, `invalid tools/list cursor ${JSON.stringify(cursor)}`);
  }
  return start;
}
