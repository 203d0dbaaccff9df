import { defineTool, ToolRegistry } from '@toolgate/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createMcpServer, exposingGate } from '../create-server.js';
import { type HttpEndpoint, serveHttp } from '../serve-http.js';
import type { ModernHttpHandler } from './http-handler.js';
import { modernHandler } from './modern-handler.js';

const modernRevision = '2026-07-28';
const envelope = {
  'io.modelcontextprotocol/protocolVersion': modernRevision,
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** A tool whose `region` and `priority` a load balancer routes on (`x-mcp-header`), counting its runs. */
function forecastTool(runs: { count: number }) {
  return defineTool({
    name: 'forecast',
    description: 'Forecasts the weather of a region.',
    input: z.object({
      region: z.string().describe('The region.').meta({ 'x-mcp-header': 'Region' }),
      priority: z.number().int().describe('How urgent.').meta({ 'x-mcp-header': 'Priority' }).optional(),
    }),
    run: ({ region }) => {
      runs.count += 1;
      return { forecast: `sunny in ${region}` };
    },
    policySubject: () => ({}),
  });
}

/** A raw modern `tools/call` of `forecast` with `arguments` and the `Mcp-Param-*` headers given. */
function callForecast(url: string, parameters: unknown, paramHeaders: Record<string, string>) {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': modernRevision,
      'mcp-method': 'tools/call',
      'mcp-name': 'forecast',
      ...paramHeaders,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'forecast', arguments: parameters, _meta: envelope },
    }),
  });
}

const base64 = (text: string) => `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`;

describe('toolgate-mcp over HTTP checks a call’s Mcp-Param-* headers (SEP-2243)', { timeout: 60_000 }, () => {
  const runs = { count: 0 };
  let endpoint: HttpEndpoint;
  let modern: ModernHttpHandler;
  beforeAll(async () => {
    const gate = exposingGate(new ToolRegistry().register(forecastTool(runs)));
    modern = await modernHandler(gate, { tools: ['forecast'] });
    endpoint = await serveHttp(() => createMcpServer(gate, { tools: ['forecast'] }), { modern });
  });
  afterAll(async () => {
    await endpoint.close();
    await modern.close();
  });
  beforeEach(() => {
    runs.count = 0;
  });

  async function expectRefused(response: Response, header: string) {
    expect(response.status).toBe(400);
    const answer = (await response.json()) as { id: unknown; error: { code: number; message: string } };
    expect(answer.id).toBe(7);
    expect(answer.error.code).toBe(-32020);
    expect(answer.error.message).toContain(header);
    expect(runs.count).toBe(0);
  }

  it('refuses a header that does not match its argument, and runs nothing', async () => {
    const response = await callForecast(endpoint.url, { region: 'north' }, { 'mcp-param-region': 'south' });
    await expectRefused(response, 'Mcp-Param-Region');
  });

  it('refuses a call whose argument is present but its header missing', async () => {
    const response = await callForecast(
      endpoint.url,
      { region: 'north', priority: 3 },
      { 'mcp-param-region': 'north' },
    );
    await expectRefused(response, 'Mcp-Param-Priority');
  });

  it('refuses a header whose Base64 sentinel is not valid Base64', async () => {
    const response = await callForecast(
      endpoint.url,
      { region: 'north' },
      { 'mcp-param-region': '=?base64?n*rth?=' },
    );
    await expectRefused(response, 'Mcp-Param-Region');
  });

  it('runs a call whose headers match, plain or Base64, numbers compared as numbers', async () => {
    const response = await callForecast(
      endpoint.url,
      { region: 'north', priority: 3 },
      { 'mcp-param-region': base64('north'), 'mcp-param-priority': '3.0' },
    );
    expect(response.status).toBe(200);
    const answer = (await response.json()) as { result: { structuredContent: unknown } };
    expect(answer.result.structuredContent).toEqual({ forecast: 'sunny in north' });
    expect(runs.count).toBe(1);
  });

  it('expects no header for an argument the call leaves out', async () => {
    const response = await callForecast(endpoint.url, { region: 'north' }, { 'mcp-param-region': 'north' });
    expect(response.status).toBe(200);
    expect(runs.count).toBe(1);
  });
});
