import {
  createServer,
  type Server as HttpServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { defaultAllowedHosts, defaultAllowedOrigins, refuseRequest } from './http-guard.js';
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
 *
 * @example
 * const endpoint = await serveHttp(() => createMcpServer(registry, { tools: ['oracle'] }), { port: 0 });
 * console.error(`listening on ${endpoint.url}`);
 */
export async function serveHttp(
  createMcpServer: () => Server,
  options: HttpServeOptions = {},
): Promise<HttpEndpoint> {
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/mcp';
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
  const guard = { allowedHosts: [] as string[], allowedOrigins: [] as string[], token: options.token };
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) sendError(response, 500, -32603, `internal error: ${String(error)}`);
      else response.destroy();
    });
  });
  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const refusal = refuseRequest(request, guard);
    if (refusal) {
      if (refusal.status === 401) response.setHeader('WWW-Authenticate', 'Bearer');
      return sendError(response, refusal.status, -32000, refusal.message);
    }
    if (new URL(request.url ?? '/', 'http://localhost').pathname !== path) {
      return sendError(response, 404, -32000, `not found; the MCP endpoint is ${path}`);
    }
    if (request.method !== 'POST') {
      response.setHeader('Allow', 'POST');
      return sendError(response, 405, -32000, 'method not allowed: this stateless server takes POST only');
    }
    let body: unknown;
    try {
      body = await readJsonBody(request, maxBodyBytes);
    } catch (error) {
      if (!(error instanceof BodyError)) throw error;
      if (error.status === 413) response.setHeader('Connection', 'close');
      return sendError(response, error.status, error.status === 400 ? -32700 : -32000, error.message);
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
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  guard.allowedHosts = [...defaultAllowedHosts(host, port), ...(options.allowedHosts ?? [])].map((name) =>
    name.toLowerCase(),
  );
  guard.allowedOrigins = [
    ...defaultAllowedOrigins(guard.allowedHosts),
    ...(options.allowedOrigins ?? []),
  ].map((name) => name.toLowerCase());
  const urlHost = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}${path}`,
    server,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function sendError(response: ServerResponse, status: number, code: number, message: string): void {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });
  response.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
  });
  response.end(body);
}
