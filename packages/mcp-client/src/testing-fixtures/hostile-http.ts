import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A raw `node:http` server speaking just enough streamable HTTP MCP to attack a client. */
export interface HostileHttp {
  /** The MCP endpoint. */
  url: string;
  /** Bytes written in answers to `tools/call`, summed. */
  readonly attackBytes: number;
  /** `tools/list` requests received. */
  readonly listRequests: number;
  close(): Promise<void>;
}

/**
 * The tools it lists, each an attack on the answer to `tools/call`:
 * - `sse_unterminated`: an SSE stream with one line that never ends (up to 1 GB);
 * - `json_huge`: a 1 GB JSON body;
 * - `sse_empty_objects`: one SSE event holding 300 MB of `{},`;
 * - `error_500`: an HTTP 500 with a 5 MB body;
 * - `rpc_error`: a JSON-RPC error whose message is 3 MB (under the per-message limit);
 * - `flood_batch`: its answer in one JSON batch behind `count` (default 10,000) `tools/list_changed` notifications;
 * - `ok`: a plain answer.
 */
export const hostileHttpTools = [
  'sse_unterminated',
  'json_huge',
  'sse_empty_objects',
  'error_500',
  'rpc_error',
  'flood_batch',
  'ok',
] as const;

/** Starts the server on a free loopback port. */
export async function startHostileHttp(): Promise<HostileHttp> {
  let attackBytes = 0;
  let listRequests = 0;
  const server = createServer((request, response) => {
    if (request.method !== 'POST') {
      response.writeHead(request.method === 'DELETE' ? 200 : 405).end();
      return;
    }
    void readJson(request).then((message) => {
      const { id, method } = message as { id?: number; method: string };
      const params = (message as { params?: Record<string, unknown> }).params ?? {};
      if (id === undefined) {
        response.writeHead(202).end();
        return;
      }
      const reply = (result: unknown) =>
        response
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', id, result }));
      if (method === 'initialize') {
        reply({
          protocolVersion: params.protocolVersion,
          capabilities: { tools: { listChanged: true } },
          serverInfo: { name: 'hostile-http', version: '1.0.0' },
        });
      } else if (method === 'tools/list') {
        listRequests += 1;
        reply({
          tools: hostileHttpTools.map((name) => ({ name, inputSchema: { type: 'object', properties: {} } })),
        });
      } else if (method === 'tools/call') {
        const count = (bytes: number) => {
          attackBytes += bytes;
        };
        attack(String(params.name), id, response, count, params.arguments as { count?: number } | undefined);
      } else {
        reply({});
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    get attackBytes() {
      return attackBytes;
    },
    get listRequests() {
      return listRequests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function attack(
  name: string,
  id: number,
  response: ServerResponse,
  count: (bytes: number) => void,
  parameters: { count?: number } = {},
): void {
  const sse = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' };
  const json = { 'content-type': 'application/json' };
  switch (name) {
    case 'sse_unterminated':
      response.writeHead(200, sse);
      stream(response, 'data: ', 'x', 1024 ** 3, '', count);
      return;
    case 'json_huge':
      response.writeHead(200, json);
      stream(
        response,
        `{"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"text","text":"`,
        'x',
        1024 ** 3,
        '"}]}}',
        count,
      );
      return;
    case 'sse_empty_objects':
      response.writeHead(200, sse);
      stream(
        response,
        `data: {"jsonrpc":"2.0","id":${id},"result":{"content":[],"junk":[{}`,
        ',{}',
        300 * 1024 ** 2,
        ']}}\n\n',
        count,
      );
      return;
    case 'error_500':
      response.writeHead(500, { 'content-type': 'text/plain' });
      stream(response, 'internal error: ', 'E', 5 * 1024 ** 2, '', count);
      return;
    case 'flood_batch': {
      const notification = { jsonrpc: '2.0', method: 'notifications/tools/list_changed' };
      const batch = [
        ...Array.from({ length: parameters.count ?? 10_000 }, () => notification),
        { jsonrpc: '2.0', id, result: { content: [], structuredContent: { flooded: true } } },
      ];
      response.writeHead(200, json).end(JSON.stringify(batch));
      return;
    }
    case 'rpc_error':
      response
        .writeHead(200, json)
        .end(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32603, message: 'm'.repeat(3_000_000) } }));
      return;
    default:
      response
        .writeHead(200, json)
        .end(
          JSON.stringify({ jsonrpc: '2.0', id, result: { content: [], structuredContent: { ok: true } } }),
        );
  }
}

/** Writes `head`, then `unit` repeated to about `total` bytes as fast as the client reads, then `tail`. */
function stream(
  response: ServerResponse,
  head: string,
  unit: string,
  total: number,
  tail: string,
  count: (bytes: number) => void,
): void {
  const chunk = unit.repeat(Math.ceil((64 * 1024) / unit.length));
  let written = 0;
  let closed = false;
  response.on('close', () => {
    closed = true;
  });
  response.write(head);
  const write = () => {
    while (!closed && written < total) {
      written += chunk.length;
      count(chunk.length);
      if (!response.write(chunk)) {
        response.once('drain', write);
        return;
      }
    }
    if (!closed) response.end(tail);
  };
  write();
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}
