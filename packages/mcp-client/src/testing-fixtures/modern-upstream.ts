import { createMcpHandler, type McpServer, type Server } from '@modelcontextprotocol/server';
import { serveFetchHandler } from '@toolgate/mcp-server/testing';

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
  const served = await serveFetchHandler(async (request) => {
    if (request.method === 'POST') {
      const body = (await request.clone().json()) as ReceivedRequest['body'];
      received.push({ headers: Object.fromEntries(request.headers), body });
      const result = careless(body);
      if (result !== undefined) return Response.json({ jsonrpc: '2.0', id: body.id, result });
    }
    return handler.fetch(request);
  });
  return {
    url: served.url,
    received,
    calls: () => received.filter((request) => request.body.method === 'tools/call'),
    close: async () => {
      await handler.close();
      await served.close();
    },
  };
}
