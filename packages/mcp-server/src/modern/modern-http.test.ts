import { request } from 'node:http';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { drawOmen, oracleTool } from '@toolgate/builtins';
import { ToolRegistry } from '@toolgate/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpServer, exposingGate } from '../create-server.js';
import { type HttpEndpoint, serveHttp } from '../serve-http.js';
import { toolListTtlMs } from './create-server.js';
import type { ModernHttpHandler } from './http-handler.js';
import { modernHandler } from './modern-handler.js';

const modernRevision = '2026-07-28';
const envelope = {
  'io.modelcontextprotocol/protocolVersion': modernRevision,
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** One endpoint serving both eras, as `toolgate-mcp --http` does. */
async function serveBothEras(): Promise<{ endpoint: HttpEndpoint; modern: ModernHttpHandler }> {
  const gate = exposingGate(new ToolRegistry().register(oracleTool()));
  const modern = await modernHandler(gate, { tools: ['oracle'] });
  const endpoint = await serveHttp(() => createMcpServer(gate, { tools: ['oracle'] }), { modern });
  return { endpoint, modern };
}

function post(url: string, body: unknown, headers: Record<string, string>): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

/** A POST with a Host header of our choosing (fetch will not send one). */
function postWithHost(url: string, body: unknown, host: string): Promise<number> {
  const target = new URL(url);
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        headers: {
          host,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': modernRevision,
          'mcp-method': 'server/discover',
          'content-length': Buffer.byteLength(text),
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(text);
  });
}

describe('toolgate-mcp over HTTP serves 2026-07-28 and 2025-11-25 side by side', { timeout: 60_000 }, () => {
  let endpoint: HttpEndpoint;
  let modern: ModernHttpHandler;
  beforeAll(async () => {
    ({ endpoint, modern } = await serveBothEras());
  });
  afterAll(async () => {
    await endpoint.close();
    await modern.close();
  });

  it('a 2.x client negotiates 2026-07-28 and calls a tool; the list carries private cache hints', async () => {
    const client = new Client({ name: 'modern', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new StreamableHTTPClientTransport(new URL(endpoint.url)));
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe(modernRevision);
      const list = await client.listTools();
      expect(list.tools.map((tool) => tool.name)).toEqual(['oracle']);
      expect(list).toMatchObject({ ttlMs: toolListTtlMs, cacheScope: 'private' });
      const result = await client.callTool({ name: 'oracle', arguments: { seed: 'same seed' } });
      expect(result.isError).not.toBe(true);
      expect(result.structuredContent).toEqual({ omen: drawOmen('same seed') });
    } finally {
      await client.close();
    }
  });

  it('a 1.x client still initializes at 2025-11-25 and gets the same result', async () => {
    const client = new LegacyClient({ name: 'legacy', version: '1' });
    const transport = new LegacyTransport(new URL(endpoint.url));
    await client.connect(transport);
    try {
      expect(transport.protocolVersion).toBe('2025-11-25');
      const result = await client.callTool({ name: 'oracle', arguments: { seed: 'same seed' } });
      const modernClient = new Client(
        { name: 'modern', version: '1' },
        { versionNegotiation: { mode: 'auto' } },
      );
      await modernClient.connect(new StreamableHTTPClientTransport(new URL(endpoint.url)));
      const modernResult = await modernClient.callTool({
        name: 'oracle',
        arguments: { seed: 'same seed' },
      });
      await modernClient.close();
      expect(modernResult.structuredContent).toEqual(result.structuredContent);
      expect(modernResult.content).toEqual(result.content);
    } finally {
      await client.close();
    }
  });

  it('answers server/discover with 2026-07-28 and its tools capability, with no session header', async () => {
    const response = await post(
      endpoint.url,
      { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: envelope } },
      { 'mcp-protocol-version': modernRevision, 'mcp-method': 'server/discover' },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('mcp-session-id')).toBeNull();
    const text = await response.text();
    expect(text).toContain(modernRevision);
    expect(text).toContain('"tools"');
  });

  it('refuses a request whose Mcp-Method header names another method than its body (HeaderMismatch)', async () => {
    const response = await post(
      endpoint.url,
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'oracle', arguments: {}, _meta: envelope },
      },
      { 'mcp-protocol-version': modernRevision, 'mcp-method': 'tools/list', 'mcp-name': 'oracle' },
    );
    expect(response.status).toBe(400);
    const answer = (await response.json()) as { error: { code: number; message: string } };
    expect(answer.error.code).toBe(-32020);
  });

  it('keeps the guard in front of modern requests: a foreign Host is refused before MCP sees it', async () => {
    const status = await postWithHost(
      endpoint.url,
      { jsonrpc: '2.0', id: 3, method: 'server/discover', params: { _meta: envelope } },
      'evil.example',
    );
    expect(status).toBe(403);
  });

  it('a tool outside the grant is refused by the same grant as for legacy clients', async () => {
    const client = new Client({ name: 'modern', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new StreamableHTTPClientTransport(new URL(endpoint.url)));
    try {
      const result = await client.callTool({ name: 'shell', arguments: { command: 'true' } });
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toMatchObject({ code: 'UNKNOWN_TOOL' });
    } finally {
      await client.close();
    }
  });

  it('two instances behind a round-robin serve one modern client: no request needs the instance before', async () => {
    const second = await serveBothEras();
    const origins = [new URL(endpoint.url).origin, new URL(second.endpoint.url).origin];
    const served: string[] = [];
    let next = 0;
    const roundRobin = (input: string | URL | Request, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : input);
      const origin = origins[next++ % origins.length]!;
      served.push(origin);
      return fetch(new URL(url.pathname, origin), init);
    };
    const client = new Client({ name: 'modern', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new StreamableHTTPClientTransport(new URL(endpoint.url), { fetch: roundRobin }));
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe(modernRevision);
      for (const seed of ['one', 'two', 'three']) {
        const result = await client.callTool({ name: 'oracle', arguments: { seed } });
        expect(result.structuredContent).toEqual({ omen: drawOmen(seed) });
      }
      expect(new Set(served)).toEqual(new Set(origins));
    } finally {
      await client.close();
      await second.endpoint.close();
      await second.modern.close();
    }
  });

  it('refuses to make the modern side for a tool that is not registered, naming it', async () => {
    const gate = exposingGate(new ToolRegistry().register(oracleTool()));
    await expect(modernHandler(gate, { tools: ['oracle', 'shell'] })).rejects.toThrow(
      /cannot expose tool "shell": it is not registered in-process \(registered: oracle\)/,
    );
  });
});
