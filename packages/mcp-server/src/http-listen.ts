import {
  createServer,
  type Server as HttpServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { defaultAllowedHosts, defaultAllowedOrigins, refuseRequest } from './http-guard.js';
import { holdIdleConnections } from './idle-connections.js';
import type { BodyError } from './read-body.js';

/** Where {@link listenGuarded} binds, and what its guard accepts. */
export interface GuardedListenOptions {
  /** The address to bind. Default `127.0.0.1` (loopback). */
  host?: string;
  /** The port; 0 picks a free one. Default 0. */
  port?: number;
  /** The endpoint path, used for the returned URL. Default `/mcp`. */
  path?: string;
  /** When set, every request needs `Authorization: Bearer <token>` (else 401). */
  token?: string | undefined;
  /** `Host` headers (host:port) accepted besides the defaults: the bound address, and loopback names on loopback. */
  allowedHosts?: readonly string[];
  /** `Origin` headers accepted besides the defaults: `http://` + each accepted host. */
  allowedOrigins?: readonly string[];
}

/** A listening, guarded HTTP server. */
export interface GuardedListener {
  /** The endpoint URL, e.g. `http://127.0.0.1:43117/mcp`. */
  readonly url: string;
  /** The underlying node HTTP server. */
  readonly server: HttpServer;
  /** Stops accepting requests and closes open connections. */
  close(): Promise<void>;
}

/**
 * Binds an HTTP server whose requests reach `handle` only once they pass the guard: `Host` and
 * `Origin` (403, DNS-rebinding protection; the accepted values are computed from the bound
 * address and port, see {@link defaultAllowedHosts}) and, when `token` is set, the bearer token
 * (401 with `WWW-Authenticate: Bearer`). Refusals and anything `handle` throws are answered as
 * JSON-RPC errors (a throw after the headers went out destroys the response). Both the
 * `toolgate-mcp` HTTP server and the gateway listen through this.
 *
 * @example
 * const listener = await listenGuarded(async (request, response) => {
 *   sendJsonRpcError(response, 404, -32000, 'nothing here');
 * }, { port: 0 });
 */
export async function listenGuarded(
  handle: (request: IncomingMessage, response: ServerResponse) => Promise<void>,
  options: GuardedListenOptions = {},
): Promise<GuardedListener> {
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/mcp';
  const guard = { allowedHosts: [] as string[], allowedOrigins: [] as string[], token: options.token };
  async function guarded(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const refusal = refuseRequest(request, guard);
    if (refusal) {
      if (refusal.status === 401) response.setHeader('WWW-Authenticate', 'Bearer');
      return sendJsonRpcError(response, refusal.status, -32000, refusal.message);
    }
    await handle(request, response);
  }
  const server = createServer((request, response) => {
    guarded(request, response).catch((error: unknown) => {
      if (!response.headersSent) sendJsonRpcError(response, 500, -32603, `internal error: ${String(error)}`);
      else response.destroy();
    });
  });
  holdIdleConnections(server);
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

/**
 * Answers with a JSON-RPC error body (`id: null`) and the given HTTP status.
 *
 * @example
 * sendJsonRpcError(response, 404, -32000, 'not found; the MCP endpoint is /mcp');
 */
export function sendJsonRpcError(
  response: ServerResponse,
  status: number,
  code: number,
  message: string,
): void {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });
  response.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
  });
  response.end(body);
}

/**
 * Answers a request whose body {@link readJsonBody} refused: a body that is not JSON as a JSON-RPC
 * parse error (400); an oversized one (413) with `Connection: close` as well, so the rest of the
 * upload is never read.
 *
 * @example
 * try { body = await readJsonBody(request, maxBodyBytes); }
 * catch (error) { if (error instanceof BodyError) return sendBodyError(response, error); throw error; }
 */
export function sendBodyError(response: ServerResponse, error: BodyError): void {
  if (error.status === 413) response.setHeader('Connection', 'close');
  sendJsonRpcError(response, error.status, error.status === 400 ? -32700 : -32000, error.message);
}
