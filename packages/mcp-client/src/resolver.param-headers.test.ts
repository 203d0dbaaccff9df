import { McpServer, Server } from '@modelcontextprotocol/server';
import { ToolgateError } from '@toolgate/core';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { MCPResolver } from './resolver.js';
import { type ModernUpstream, modernUpstream } from './testing-fixtures/modern-upstream.js';
import type { ToolChange } from './tools/index.js';

/** A tool whose arguments a load balancer routes on: four of them declared as `x-mcp-header`. */
function forecastServer(): McpServer {
  const server = new McpServer({ name: 'routed', version: '1.0.0' });
  server.registerTool(
    'forecast',
    {
      description: 'Forecasts the weather of a region.',
      inputSchema: z.object({
        region: z.string().meta({ 'x-mcp-header': 'Region' }),
        priority: z.number().int().meta({ 'x-mcp-header': 'Priority' }),
        verbose: z.boolean().meta({ 'x-mcp-header': 'Verbose' }).optional(),
        city: z.string().meta({ 'x-mcp-header': 'City' }).optional(),
        query: z.string(),
      }),
    },
    async ({ region }) => ({ content: [{ type: 'text', text: `sunny in ${region}` }] }),
  );
  return server;
}

const objectOf = (properties: Record<string, unknown>) => ({ type: 'object', properties });

/** Tools listed as raw JSON: one whose declaration is valid, three whose declarations break the rules. */
function declaringServer(): Server {
  const server = new Server({ name: 'declaring', version: '1.0.0' }, { capabilities: { tools: {} } });
  const tools = [
    { name: 'lookup', inputSchema: objectOf({ region: { type: 'string', 'x-mcp-header': 'Region' } }) },
    { name: 'spaced', inputSchema: objectOf({ value: { type: 'string', 'x-mcp-header': 'My Region' } }) },
    { name: 'scored', inputSchema: objectOf({ score: { type: 'number', 'x-mcp-header': 'Score' } }) },
    {
      name: 'twice',
      inputSchema: objectOf({
        a: { type: 'string', 'x-mcp-header': 'Zone' },
        b: { type: 'string', 'x-mcp-header': 'zone' },
      }),
    },
  ].map((tool) => ({ ...tool, description: `The ${tool.name} tool.` }));
  server.setRequestHandler('tools/list', async () => ({ tools, ttlMs: 0, cacheScope: 'private' }) as never);
  server.setRequestHandler('tools/call', async (request) => ({
    content: [{ type: 'text', text: `called ${request.params.name}` }],
  }));
  return server;
}

describe('MCPResolver and x-mcp-header (MCP 2026-07-28, SEP-2243)', { timeout: 120_000 }, () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });
  async function attach(upstream: ModernUpstream, onChange?: (change: ToolChange) => void) {
    cleanup.push(() => upstream.close());
    const resolver = await MCPResolver.connect([{ name: 'upstream', url: upstream.url }], { onChange });
    cleanup.push(() => resolver.close());
    return resolver;
  }

  it('mirrors each declared argument of a call into its Mcp-Param header, Base64 where plain ASCII cannot carry it', async () => {
    const upstream = await modernUpstream(forecastServer);
    const resolver = await attach(upstream);
    const parameters = { region: 'us-west1', priority: 42, verbose: false, city: 'Zürich ', query: 'rain?' };
    expect(JSON.stringify(await resolver.call('forecast', parameters))).toContain('sunny in us-west1');
    const [call] = upstream.calls();
    expect(call?.headers['mcp-param-region']).toBe('us-west1');
    expect(call?.headers['mcp-param-priority']).toBe('42');
    expect(call?.headers['mcp-param-verbose']).toBe('false');
    expect(call?.headers['mcp-param-city']).toBe(`=?base64?${Buffer.from('Zürich ').toString('base64')}?=`);
    expect(Object.keys(call?.headers ?? {}).filter((name) => name.startsWith('mcp-param-'))).toHaveLength(4);
  });

  it('sends no Mcp-Param header for a declared argument the call leaves out', async () => {
    const upstream = await modernUpstream(forecastServer);
    const resolver = await attach(upstream);
    await resolver.call('forecast', { region: 'eu-north1', priority: 1, query: 'snow?' });
    const [call] = upstream.calls();
    expect(call?.headers['mcp-param-region']).toBe('eu-north1');
    expect(call?.headers['mcp-param-verbose']).toBeUndefined();
    expect(call?.headers['mcp-param-city']).toBeUndefined();
  });

  it('withholds a tool whose x-mcp-header declarations break the rules, saying which, and never calls it', async () => {
    const upstream = await modernUpstream(declaringServer);
    const changes: ToolChange[] = [];
    const resolver = await attach(upstream, (change) => changes.push(change));
    expect(resolver.servedNames()).toEqual(['lookup']);
    const reasons = Object.fromEntries(
      changes.filter((change) => change.kind === 'withheld').map((change) => [change.tool, change.reason]),
    );
    expect(reasons.spaced).toContain('x-mcp-header "My Region" on property "value" is not an HTTP token');
    expect(reasons.scored).toContain('of type "number"');
    expect(reasons.twice).toContain('"zone" on property "b" repeats "Zone"');
    const refusal = await resolver.call('spaced', { value: 'x' }).catch((error: unknown) => error);
    expect(ToolgateError.is(refusal) && refusal.code).toBe('UNKNOWN_TOOL');
    expect((refusal as Error).message).toContain('tool "spaced" on MCP server "upstream" is not served');
    expect((refusal as Error).message).toContain('x-mcp-header "My Region"');
    expect(JSON.stringify(await resolver.call('lookup', { region: 'us-east1' }))).toContain('called lookup');
    expect(upstream.calls().map((call) => call.body.params?.name)).toEqual(['lookup']);
  });
});
