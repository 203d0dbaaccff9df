import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthInfo, Server } from '@modelcontextprotocol/server';
import { paramHeaderMismatch, scanParamHeaders } from '@toolgate/core/internal';

/** Makes the server of one modern request; `authInfo` is what the endpoint's guard said of its caller. */
export type ModernServerFactory = (authInfo: AuthInfo | undefined) => Server | Promise<Server>;

/**
 * The input schema (as `tools/list` serves it to this caller) of the tool a modern `tools/call`
 * names, or `undefined` for a tool the caller is not served; its `x-mcp-header` declarations are
 * what the call's `Mcp-Param-*` headers are checked against.
 */
export type ToolInputSchemaOf = (tool: string, authInfo: AuthInfo | undefined) => unknown;

/** What `modernHttpHandler` takes beside the factory. */
export interface ModernHttpOptions {
  /**
   * Where a `tools/call`'s `Mcp-Param-*` headers are checked (SEP-2243): a call whose header is
   * missing for a declared argument it carries, does not match it, or is invalid Base64 is refused
   * with HTTP 400 and `-32020` (HeaderMismatch) before any server is made. Without it, no
   * `Mcp-Param-*` header is checked: give it whenever a served tool declares `x-mcp-header`.
   */
  toolInputSchema?: ToolInputSchemaOf;
}

/** The 2026-07-28 side of an HTTP endpoint: which requests are its, and how it answers them. */
export interface ModernHttpHandler {
  /**
   * Whether the request belongs to the 2026-07-28 era (it carries the per-request `_meta` envelope
   * or a modern `MCP-Protocol-Version` header), by the SDK's own classification; an `initialize`
   * and every other 2025-era message is not.
   */
  isModern(request: IncomingMessage, body: unknown): Promise<boolean>;
  /**
   * Answers one modern request (its body already read and parsed) on `response`; `authInfo`
   * (who the guard found the caller to be) reaches the factory and each handler's `ctx.http`.
   */
  serve(
    request: IncomingMessage,
    response: ServerResponse,
    body: unknown,
    authInfo?: AuthInfo,
  ): Promise<void>;
  /** Ends the requests in flight. */
  close(): Promise<void>;
}

/**
 * The SDK's 2026-07-28 HTTP entry (`createMcpHandler` of `@modelcontextprotocol/server`, strict:
 * `legacy: 'reject'`) on a node `http` request whose guard (Host, Origin, token, size) has already
 * run. The SDK checks what the revision requires of a request — the `_meta` envelope, the
 * `Mcp-Method` / `Mcp-Name` headers against the body (`HeaderMismatch`), a revision it serves — and
 * answers `server/discover`; this checks a `tools/call`'s `Mcp-Param-*` headers against its arguments
 * (`options.toolInputSchema`), which the SDK does only for its `McpServer`. `factory` makes a fresh server for each request: nothing is kept
 * between requests, so a second instance behind a round-robin answers the same. The SDK's 2.x
 * server is loaded when this is first called, not before.
 *
 * @example
 * const modern = await modernHttpHandler(() => createModernMcpServer(gate, { tools: ['oracle'] }), {
 *   toolInputSchema: (tool) => listedTools.find((listed) => listed.name === tool)?.inputSchema,
 * });
 * if (await modern.isModern(request, body)) return modern.serve(request, response, body);
 */
export async function modernHttpHandler(
  factory: ModernServerFactory,
  options: ModernHttpOptions = {},
): Promise<ModernHttpHandler> {
  const { createMcpHandler, isLegacyRequest } = await import('@modelcontextprotocol/server');
  const handler = createMcpHandler((context) => factory(context.authInfo), { legacy: 'reject' });
  return {
    isModern: async (request, body) => !(await isLegacyRequest(webRequest(request), body)),
    async serve(request, response, body, authInfo) {
      const mismatch = await paramMismatchOf(request, body, authInfo, options.toolInputSchema);
      if (mismatch !== undefined) {
        const bytes = Buffer.from(JSON.stringify(mismatch.answer));
        response.writeHead(400, {
          'content-type': 'application/json',
          'content-length': String(bytes.length),
        });
        response.end(bytes);
        return;
      }
      const aborted = new AbortController();
      response.on('close', () => aborted.abort());
      const answer = await handler.fetch(webRequest(request, aborted.signal), {
        parsedBody: body,
        ...(authInfo === undefined ? {} : { authInfo }),
      });
      const headers = Object.fromEntries(answer.headers);
      if (!(answer.headers.get('content-type') ?? '').includes('text/event-stream')) {
        // A JSON answer goes whole, with its length, as the 2025-era transport sends it.
        const bytes = Buffer.from(await answer.arrayBuffer());
        response.writeHead(answer.status, { ...headers, 'content-length': String(bytes.length) });
        response.end(bytes);
        return;
      }
      response.writeHead(answer.status, headers);
      if (answer.body !== null) {
        for await (const chunk of answer.body as unknown as AsyncIterable<Uint8Array>) {
          if (response.destroyed) break;
          response.write(chunk);
        }
      }
      response.end();
    },
    close: () => handler.close(),
  };
}

/** The -32020 answer to a `tools/call` whose `Mcp-Param-*` headers disagree with its arguments. */
async function paramMismatchOf(
  request: IncomingMessage,
  body: unknown,
  authInfo: AuthInfo | undefined,
  toolInputSchema: ToolInputSchemaOf | undefined,
): Promise<{ answer: unknown } | undefined> {
  if (toolInputSchema === undefined || typeof body !== 'object' || body === null) return undefined;
  const { id, method, params } = body as { id?: unknown; method?: unknown; params?: unknown };
  if (method !== 'tools/call' || typeof params !== 'object' || params === null) return undefined;
  const { name, arguments: parameters } = params as { name?: unknown; arguments?: unknown };
  if (typeof name !== 'string') return undefined;
  const inputSchema = await toolInputSchema(name, authInfo);
  if (inputSchema === undefined) return undefined;
  const scan = scanParamHeaders(inputSchema);
  // A tool whose declarations break the revision's rules is one a client drops: nothing to check.
  if (!('headers' in scan)) return undefined;
  const problem = paramHeaderMismatch(scan.headers, parameters, (header) => {
    const value = request.headers[header.toLowerCase()];
    return Array.isArray(value) ? value.join(', ') : value;
  });
  if (problem === undefined) return undefined;
  return {
    answer: {
      jsonrpc: '2.0',
      id: typeof id === 'string' || typeof id === 'number' ? id : null,
      error: { code: -32020, message: `Bad Request: the request headers and body disagree: ${problem}` },
    },
  };
}

/** A web `Request` with the node request's method, URL and headers; the body travels parsed. */
function webRequest(request: IncomingMessage, signal?: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const url = new URL(request.url ?? '/', `http://${request.headers.host ?? 'localhost'}`);
  return new Request(url, {
    method: request.method ?? 'POST',
    headers,
    ...(signal === undefined ? {} : { signal }),
  });
}
