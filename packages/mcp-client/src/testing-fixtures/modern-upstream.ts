import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpHandler, type McpServer, type Server } from '@modelcontextprotocol/server';

/** One POST a test upstream received: its headers (lower-cased names) and its JSON-RPC body. */
export interface ReceivedRequest {
  headers: Record<string, string>;
  body: { id?: unknown; method?: string; params?: Record<string, unknown> };
}

/** A 2026-07-28-only upstream: every POST it received, in order, and how to stop it. */
export interface ModernUpstream {
  url: string;
  received: ReceivedRequest[];
  /** The received `tools/call` requests, in order. */
  calls(): ReceivedRequest[];
  close(): Promise<void>;
}

/**
 * A real 2.x SDK server (`build` makes one per request, as stateless serving does) behind the SDK's
 * `createMcpHandler` over node http, speaking MCP 2026-07-28 only, keeping what each POST carried.
 * `careless` answers a request itself when it returns a result (a server that skips the SDK's
 * checks, such as the one that asks only what the client declared).
 */
export async function modernUpstream(
  build: () => McpServer | Server,
  careless: (body: ReceivedRequest['body']) => Record<string, unknown> | undefined = () => undefined,
): Promise<ModernUpstream> {
  const received: ReceivedRequest[] = [];
  const handler = createMcpHandler(() => build(), { legacy: 'reject' });
  const http: HttpServer = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const headers = new Headers();
    const seen: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (typeof value !== 'string') continue;
      headers.set(name, value);
      seen[name] = value;
    }
    if (request.method === 'POST') {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ReceivedRequest['body'];
      received.push({ headers: seen, body });
      const result = careless(body);
      if (result !== undefined) {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ jsonrpc: '2.0', id: body.id, result }));
        return;
      }
    }
    const answer = await handler.fetch(
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
    received,
    calls: () => received.filter((request) => request.body.method === 'tools/call'),
    close: async () => {
      await handler.close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}
