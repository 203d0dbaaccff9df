import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthInfo, Server } from '@modelcontextprotocol/server';

/** Makes the server of one modern request; `authInfo` is what the endpoint's guard said of its caller. */
export type ModernServerFactory = (authInfo: AuthInfo | undefined) => Server | Promise<Server>;

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
 * answers `server/discover`. `factory` makes a fresh server for each request: nothing is kept
 * between requests, so a second instance behind a round-robin answers the same. The SDK's 2.x
 * server is loaded when this is first called, not before.
 *
 * @example
 * const modern = await modernHttpHandler(() => createModernMcpServer(gate, { tools: ['oracle'] }));
 * if (await modern.isModern(request, body)) return modern.serve(request, response, body);
 */
export async function modernHttpHandler(factory: ModernServerFactory): Promise<ModernHttpHandler> {
  const { createMcpHandler, isLegacyRequest } = await import('@modelcontextprotocol/server');
  const handler = createMcpHandler((context) => factory(context.authInfo), { legacy: 'reject' });
  return {
    isModern: async (request, body) => !(await isLegacyRequest(webRequest(request), body)),
    async serve(request, response, body, authInfo) {
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
