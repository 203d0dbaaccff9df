import type { Server as HttpServer } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ToolgateError } from '@toolgate/core';
import { isLoopback } from './http-guard.js';
import { listenGuarded, sendBodyError, sendJsonRpcError } from './http-listen.js';
import type { ModernHttpHandler } from './modern/http-handler.js';
import { BodyError, readJsonBody } from './read-body.js';

/** What {@link serveHttp} takes. */
export interface HttpServeOptions {
  /** The address to bind. Default `127.0.0.1` (loopback). */
  host?: string;
  /** The port; 0 picks a free one. Default 0. */
  port?: number;
  /** The endpoint path. Default `/mcp`. */
  path?: string;
  /** When set, every request needs `Authorization: Bearer <token>` (else 401). */
  token?: string;
  /** `Host` headers (host:port) accepted besides the defaults: the bound address, and loopback names on loopback. */
  allowedHosts?: readonly string[];
  /** `Origin` headers accepted besides the defaults: `http://` + each accepted host. */
  allowedOrigins?: readonly string[];
  /** The largest request body, in bytes (else 413). Default 1 MiB. */
  maxBodyBytes?: number;
  /**
   * Serve a `host` that is not loopback without a `token`, on purpose (`toolgate-mcp --no-auth`).
   * Default false: such a bind is refused with INVALID_DEFINITION, since anyone who can reach the
   * port could call every tool served.
   */
  allowUnauthenticated?: boolean;
  /**
   * The 2026-07-28 side of the endpoint (`modernHandler(gate, { tools })`): requests of that revision go
   * to it, after the same guard; 2025-era requests (an `initialize` and what follows) go to
   * `createMcpServer` as before. Without it, modern clients fall back to 2025-11-25.
   */
  modern?: ModernHttpHandler;
}

/** A running HTTP endpoint. */
export interface HttpEndpoint {
  /** The endpoint URL, e.g. `http://127.0.0.1:43117/mcp`. */
  readonly url: string;
  /** The underlying node HTTP server. */
  readonly server: HttpServer;
  /** Stops accepting requests and closes open connections. */
  close(): Promise<void>;
}

/**
 * Serves MCP over streamable HTTP, statelessly: every POST gets a fresh server from `createServer`
 * and a fresh transport, so instances can sit behind any load balancer. Before MCP sees a request
 * it checks `Host` and `Origin` (403), the bearer token (401), the method (405) and the body size (413).
 * A `host` that is not loopback needs a `token` (or `allowUnauthenticated: true`), as for `toolgate-mcp`.
 *
 * @example
 * const endpoint = await serveHttp(() => createMcpServer(registry, { tools: ['oracle'] }), { port: 0 });
 * console.error(`listening on ${endpoint.url}`);
 */
export async function serveHttp(
  createMcpServer: () => Server,
  options: HttpServeOptions = {},
): Promise<HttpEndpoint> {
  assertAuthenticatedBind(options);
  const path = options.path ?? '/mcp';
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
  return listenGuarded(async (request, response) => {
    if (new URL(request.url ?? '/', 'http://localhost').pathname !== path) {
      return sendJsonRpcError(response, 404, -32000, `not found; the MCP endpoint is ${path}`);
    }
    if (request.method !== 'POST') {
      response.setHeader('Allow', 'POST');
      return sendJsonRpcError(
        response,
        405,
        -32000,
        'method not allowed: this stateless server takes POST only',
      );
    }
    let body: unknown;
    try {
      body = await readJsonBody(request, maxBodyBytes);
    } catch (error) {
      if (!(error instanceof BodyError)) throw error;
      return sendBodyError(response, error);
    }
    if (options.modern && (await options.modern.isModern(request, body))) {
      return options.modern.serve(request, response, body);
    }
    const mcp = createMcpServer();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    response.on('close', () => {
      void transport.close();
      void mcp.close();
    });
    await mcp.connect(transport);
    await transport.handleRequest(request, response, body);
  }, options);
}

/** Refuses, before anything is bound, an address beyond loopback that nobody has to authenticate to. */
function assertAuthenticatedBind(options: HttpServeOptions): void {
  const host = options.host ?? '127.0.0.1';
  if (options.token !== undefined || options.allowUnauthenticated === true || isLoopback(host)) return;
  throw new ToolgateError(
    'INVALID_DEFINITION',
    `serveHttp: host ${host} is not loopback, so anyone who can reach it could call the tools served without ` +
      'a token; pass `token` (clients send "Authorization: Bearer <token>"), bind 127.0.0.1, or pass ' +
      '`allowUnauthenticated: true` to serve it unauthenticated on purpose',
  );
}
