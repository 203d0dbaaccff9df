import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { defineTool, ToolRegistry } from '@toolgate/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { callerTimeKey } from '../caller-time.js';
import { createMcpServer, exposingGate } from '../create-server.js';
import { type HttpEndpoint, serveHttp } from '../serve-http.js';
import { modernHandler } from './modern-handler.js';

const clock = defineTool({
  name: 'clock',
  description: 'Says how long its call has left.',
  input: z.object({}),
  run: (_parameters, context) => ({
    finite: Number.isFinite(context.deadline),
    leftMs: Number.isFinite(context.deadline) ? context.deadline - Date.now() : null,
  }),
});

describe('the 2026-07-28 server reads the caller-time _meta key', { timeout: 120_000 }, () => {
  let endpoint: HttpEndpoint;
  let client: Client;
  beforeAll(async () => {
    const gate = exposingGate(new ToolRegistry().register(clock));
    const modern = await modernHandler(gate, { tools: ['clock'] });
    endpoint = await serveHttp(() => createMcpServer(gate, { tools: ['clock'] }), { modern });
    client = new Client({ name: 'modern', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new StreamableHTTPClientTransport(new URL(endpoint.url)));
  }, 60_000);
  afterAll(async () => {
    await client?.close();
    await endpoint?.close();
  });

  it("ends a call by the time its client says it waits, and without it by the tool's own", async () => {
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const told = await client.callTool({ name: 'clock', arguments: {}, _meta: { [callerTimeKey]: 180_000 } });
    const { finite, leftMs } = told.structuredContent as { finite: boolean; leftMs: number };
    expect(finite).toBe(true);
    expect(leftMs).toBeGreaterThan(0);
    expect(leftMs).toBeLessThanOrEqual(180_000);
    const untold = await client.callTool({ name: 'clock', arguments: {} });
    expect(untold.structuredContent).toEqual({ finite: false, leftMs: null });
    const junk = await client.callTool({ name: 'clock', arguments: {}, _meta: { [callerTimeKey]: 'soon' } });
    expect(junk.structuredContent).toEqual({ finite: false, leftMs: null });
  });
});
