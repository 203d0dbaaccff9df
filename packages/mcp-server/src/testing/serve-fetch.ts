import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A fetch handler served over node http on a loopback port (see {@link serveFetchHandler}). */
export interface ServedFetch {
  /** `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  /** Closes every connection and the server. */
  close(): Promise<void>;
}

/**
 * Serves a web fetch handler (the 2.x SDK's `createMcpHandler(...).fetch`, or a test's own wrapper
 * of one) over node http on a free loopback port: each request's method, URL, headers and whole
 * body become a web `Request`, and the `Response`'s status, headers and whole body go back. For
 * tests of clients against real servers that serve from a fetch handler; a wrapper can look at the
 * request (`request.clone().json()`) and answer it itself.
 *
 * @example
 * const handler = createMcpHandler(() => server, { legacy: 'reject' });
 * const served = await serveFetchHandler((request) => handler.fetch(request));
 * // … connect a client to served.url …
 * await served.close();
 */
export async function serveFetchHandler(
  fetch: (request: Request) => Response | Promise<Response>,
): Promise<ServedFetch> {
  const http: HttpServer = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers))
      if (typeof value === 'string') headers.set(name, value);
    const answer = await fetch(
      new Request(`http://${request.headers.host}${request.url}`, {
        method: request.method ?? 'GET',
        headers,
        ...(request.method === 'POST' ? { body: Buffer.concat(chunks) } : {}),
      }),
    );
    response.writeHead(answer.status, Object.fromEntries(answer.headers));
    response.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: async () => {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}
