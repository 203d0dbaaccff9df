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
  type CallObserver,
  type CallOptions,
  type Limits,
  type Policy,
  type Tool,
  ToolGate,
  ToolgateError,
  type ToolRegistry,
} from '@toolgate/core';
import { callerDeadline } from './caller-time.js';
import { callExposed, toMcpTool } from './expose.js';
import { exposedGrant } from './exposed-grant.js';
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
  /**
   * What one call hands back at most (the gate's {@link Limits}), for the gate made here when a
   * registry is given; a gate given brings its own: `outputChars` for the output's JSON
   * text and each text part (default 100,000), `contentBytes` for each binary part (default 5 MiB;
   * a part over it is replaced by a text part saying what was omitted), `errorChars` for an error
   * message (default 10,000).
   */
  limits?: Partial<Limits>;
  /**
   * Watches every call of the gate made here when a registry is given (`@toolgate/otel`'s
   * `otelObserver({ attributes: { 'mcp.method.name': 'tools/call' } })`); a gate given brings its own.
   */
  observer?: CallObserver;
}

/**
 * An MCP server exposing the named registry tools — and only those. Calls go through one
 * {@link ToolGate} (made here, for the server's lifetime) with a grant of exactly `tools`, so a tool the list does not name cannot be called; failures come
 * back as `isError` results. A client's `notifications/cancelled` aborts the tool's signal; a
 * client that sends a progress token gets the tool's progress reports as `notifications/progress`. The server is not connected: pass it to a transport (one per
 * connection or, over stateless HTTP, one per request).
 *
 * Given a registry, the server makes its gate (no policy: the grant is the boundary; no budget but
 * each tool's own); given a gate — one for many servers, such as one per stateless HTTP request —
 * every call runs through that gate.
 *
 * @example
 * const registry = new ToolRegistry().register(oracleTool());
 * const server = createMcpServer(registry, { tools: ['oracle'] });
 * await server.connect(new StdioServerTransport());
 */
export function createMcpServer(source: ToolRegistry | ToolGate, options: McpServerOptions): Server {
  const gate =
    source instanceof ToolGate
      ? source
      : exposingGate(source, { limits: options.limits, observer: options.observer });
  const tools = exposedTools(gate.registry, options.tools);
  const listed: McpTool[] = tools.map(toMcpTool);
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
  server.setRequestHandler(ListToolsRequestSchema, (request) => {
    const start = pageStart(request.params?.cursor);
    const page = listed.slice(start, start + pageSize);
    const next = start + pageSize < listed.length ? { nextCursor: String(start + pageSize) } : {};
    return { tools: page, ...next };
  });
  server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
    callExposed({
      gate,
      grant,
      tool: request.params.name,
      parameters: request.params.arguments,
      options: {
        signal: extra.signal,
        // the time the client waits (a toolgate client says so): the call ends by then
        deadline: callerDeadline(request.params._meta),
        ...progressTo(request.params._meta?.progressToken, extra.sendNotification),
      },
    }),
  );
  return server;
}

/** What {@link exposingGate} takes: the output limits, the observer, and the policy. */
export interface ExposingGateOptions {
  limits?: Partial<Limits> | undefined;
  observer?: CallObserver | undefined;
  /**
   * The policy every call is judged by (`toolgate-mcp --policy FILE…` loads one); without it every
   * call of an exposed tool is allowed (the grant is the boundary). There is no approver: an `ask`
   * is refused, saying nobody could be asked.
   */
  policy?: Policy | undefined;
}

/**
 * The gate of a server: no recorder, no budget but each tool's own (a caller's deadline still ends
 * a call), the limits, the observer and the policy given (none: the grant is the boundary).
 *
 * @example
 * const gate = exposingGate(registry, { policy: loadPolicyFiles(['managed.yaml', 'user.yaml']).policy });
 */
export function exposingGate(registry: ToolRegistry, options: ExposingGateOptions = {}): ToolGate {
  const { limits, observer, policy } = options;
  return new ToolGate(registry, {
    timeoutMs: Number.POSITIVE_INFINITY,
    ...(limits === undefined ? {} : { limits }),
    ...(observer === undefined ? {} : { observer }),
    ...(policy === undefined ? {} : { policy }),
  });
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
): Pick<CallOptions, 'onProgress'> {
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
