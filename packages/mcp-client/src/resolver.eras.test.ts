import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer as LegacyMcpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport as LegacyTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { serveFetchHandler } from '@toolgate/mcp-server/testing';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { MCPResolver } from './resolver.js';

interface Upstream {
  url: string;
  /** What the server saw: the era of each request (2.x handler) or each method (1.x server). */
  seen: string[];
  close(): Promise<void>;
}

/**
 * A real 2.x SDK server over node http: modern only (`legacy: 'reject'`) or both eras; with
 * `refuseFirst`, its first request is answered UnsupportedProtocolVersion (-32022, HTTP 400) naming
 * 2026-07-28 as what it supports, as a server picking among revisions may.
 */
async function sdkUpstream(legacy: 'reject' | 'stateless', refuseFirst = false): Promise<Upstream> {
  let refused = !refuseFirst;
  const seen: string[] = [];
  const handler = createMcpHandler(
    (context) => {
      seen.push(context.era);
      const server = new McpServer({ name: 'era-upstream', version: '1.0.0' });
      server.registerTool(
        'shout',
        { description: 'Upper-cases a text.', inputSchema: z.object({ text: z.string() }) },
        async ({ text }) => ({ content: [{ type: 'text', text: text.toUpperCase() }] }),
      );
      return server;
    },
    { legacy },
  );
  const served = await serveFetchHandler(async (request) => {
    if (!refused && request.method === 'POST') {
      refused = true;
      const { id } = (await request.json()) as { id?: unknown };
      seen.push('refused');
      const error = {
        code: -32022,
        message: 'Unsupported protocol version',
        data: { supported: ['2026-07-28'], requested: 'x' },
      };
      return Response.json({ jsonrpc: '2.0', id: id ?? null, error }, { status: 400 });
    }
    return handler.fetch(request);
  });
  return {
    url: served.url,
    seen,
    close: async () => {
      await handler.close();
      await served.close();
    },
  };
}

/** A 2025-11-25-only server: the 1.x SDK, stateless, a server and transport per request. */
async function legacyUpstream(): Promise<Upstream> {
  const methods: string[] = [];
  const http: HttpServer = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = chunks.length
      ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { method?: string })
      : undefined;
    if (body?.method) methods.push(body.method);
    const server = new LegacyMcpServer({ name: 'legacy-upstream', version: '1.0.0' });
    server.registerTool(
      'shout',
      { description: 'Upper-cases a text.', inputSchema: { text: z.string() } },
      async ({ text }) => ({ content: [{ type: 'text', text: text.toUpperCase() }] }),
    );
    const transport = new LegacyTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    response.on('close', () => void transport.close());
    await server.connect(transport);
    await transport.handleRequest(request, response, body);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    seen: methods,
    close: async () => {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

describe('MCPResolver negotiates the MCP era with each HTTP upstream', { timeout: 120_000 }, () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  it('speaks 2026-07-28 to a server that serves nothing else', async () => {
    const upstream = await sdkUpstream('reject');
    cleanup.push(() => upstream.close());
    const resolver = await MCPResolver.connect([{ name: 'modern', url: upstream.url }]);
    cleanup.push(() => resolver.close());
    expect(await resolver.has('shout')).toBe(true);
    expect(JSON.stringify(await resolver.call('shout', { text: 'stateless' }))).toContain('STATELESS');
    expect(upstream.seen.length).toBeGreaterThan(0);
    expect(new Set(upstream.seen)).toEqual(new Set(['modern']));
  });

  it('uses 2026-07-28, the newest, with a server that serves both eras', async () => {
    const upstream = await sdkUpstream('stateless');
    cleanup.push(() => upstream.close());
    const resolver = await MCPResolver.connect([{ name: 'both', url: upstream.url }]);
    cleanup.push(() => resolver.close());
    await resolver.call('shout', { text: 'newest' });
    expect(new Set(upstream.seen)).toEqual(new Set(['modern']));
  });

  it('sends the probe again when refused UnsupportedProtocolVersion naming 2026-07-28, and speaks it', async () => {
    const upstream = await sdkUpstream('reject', true);
    cleanup.push(() => upstream.close());
    const resolver = await MCPResolver.connect([{ name: 'picky', url: upstream.url }]);
    cleanup.push(() => resolver.close());
    expect(JSON.stringify(await resolver.call('shout', { text: 'again' }))).toContain('AGAIN');
    expect(upstream.seen[0]).toBe('refused');
    expect(new Set(upstream.seen.slice(1))).toEqual(new Set(['modern']));
  });

  it('keeps 2025-11-25 with a server of that era only: the probe is refused, initialize follows', async () => {
    const upstream = await legacyUpstream();
    cleanup.push(() => upstream.close());
    const resolver = await MCPResolver.connect([{ name: 'legacy', url: upstream.url }]);
    cleanup.push(() => resolver.close());
    expect(JSON.stringify(await resolver.call('shout', { text: 'old' }))).toContain('OLD');
    // here `seen` holds the methods the server saw, in order
    expect(upstream.seen.slice(0, 2)).toEqual(['server/discover', 'initialize']);
    expect(upstream.seen).toContain('tools/call');
  });

  it("skips the probe with protocol '2025-11-25': initialize first", async () => {
    const upstream = await legacyUpstream();
    cleanup.push(() => upstream.close());
    const resolver = await MCPResolver.connect([
      { name: 'legacy', url: upstream.url, protocol: '2025-11-25' },
    ]);
    cleanup.push(() => resolver.close());
    expect(JSON.stringify(await resolver.call('shout', { text: 'plain' }))).toContain('PLAIN');
    expect(upstream.seen[0]).toBe('initialize');
    expect(upstream.seen).not.toContain('server/discover');
  });

  it("fails the connect with protocol '2026-07-28' and a 2025-11-25 server, naming the key", async () => {
    const upstream = await legacyUpstream();
    cleanup.push(() => upstream.close());
    const failure = await MCPResolver.connect([
      { name: 'legacy', url: upstream.url, protocol: '2026-07-28' },
    ]).catch((error: unknown) => error);
    expect((failure as Error).message).toMatch(
      /MCP server "legacy" failed during starting it: it does not offer MCP 2026-07-28 \(HTTP 400: server\/discover answered error -32000: Bad Request: Unsupported protocol version: 2026-07-28.*\), and its config's protocol is '2026-07-28'/,
    );
    expect(upstream.seen).toEqual(['server/discover']);
  });

  it("speaks 2026-07-28 with protocol '2026-07-28' and a server that offers it", async () => {
    const upstream = await sdkUpstream('stateless');
    cleanup.push(() => upstream.close());
    const resolver = await MCPResolver.connect([{ name: 'both', url: upstream.url, protocol: '2026-07-28' }]);
    cleanup.push(() => resolver.close());
    expect(JSON.stringify(await resolver.call('shout', { text: 'pinned' }))).toContain('PINNED');
    expect(new Set(upstream.seen)).toEqual(new Set(['modern']));
  });
});
