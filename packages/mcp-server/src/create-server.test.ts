import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { drawOmen, oracleTool } from '@toolgate/builtins';
import { defineTool, ToolRegistry } from '@toolgate/core';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { callerTimeKey } from './caller-time.js';
import { createMcpServer, type McpServerOptions } from './create-server.js';
import { type HttpEndpoint, serveHttp } from './serve-http.js';

const secret = defineTool({
  name: 'secret',
  description: 'Something not to expose.',
  input: z.object({}),
  run: () => ({ leaked: true }),
});
const broken = defineTool({
  name: 'broken',
  description: 'Always throws.',
  input: z.object({}),
  run: () => {
    throw new Error('gears jammed');
  },
});
const list = defineTool({
  name: 'list',
  description: 'Returns an array.',
  input: z.object({ size: z.number().describe('How many.') }),
  run: ({ size }) => Array.from({ length: size }, (_, index) => index),
});

const clock = defineTool({
  name: 'clock',
  description: 'Says how long its call has left.',
  input: z.object({}),
  run: (_parameters, context) => ({
    finite: Number.isFinite(context.deadline),
    leftMs: Number.isFinite(context.deadline) ? context.deadline - Date.now() : null,
  }),
});

describe('createMcpServer (served over real streamable HTTP)', () => {
  let endpoint: HttpEndpoint | undefined;
  const clients: Client[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    await endpoint?.close();
    endpoint = undefined;
  });

  async function client(options: McpServerOptions, registry = new ToolRegistry().register(oracleTool())) {
    endpoint = await serveHttp(() => createMcpServer(registry, options));
    const connected = new Client({ name: 'test', version: '1' });
    await connected.connect(new StreamableHTTPClientTransport(new URL(endpoint.url)));
    clients.push(connected);
    return connected;
  }

  it('lists exactly the named tools, with their schema and readOnlyHint from parallelSafe', async () => {
    const registry = new ToolRegistry().register(oracleTool()).register(secret).register(list);
    const mcp = await client({ tools: ['oracle', 'list'] }, registry);
    const { tools } = await mcp.listTools();
    expect(tools.map((tool) => [tool.name, tool.annotations?.readOnlyHint])).toEqual([
      ['oracle', true],
      ['list', false],
    ]);
    expect(tools[0]!.inputSchema).toEqual(oracleTool().inputSchema);
  });

  it('refuses a registered tool it was not told to expose', async () => {
    const registry = new ToolRegistry().register(oracleTool()).register(secret);
    const mcp = await client({ tools: ['oracle'] }, registry);
    const result = await mcp.callTool({ name: 'secret', arguments: {} });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toEqual({
      code: 'UNKNOWN_TOOL',
      message:
        'MCP server "toolgate-mcp" does not serve a tool named "secret"; it serves: oracle (its tools/list)',
    });
    expect(JSON.stringify(result)).not.toContain('leaked');
  });

  it('returns an output as structuredContent plus the same JSON as text', async () => {
    const mcp = await client({ tools: ['oracle'] });
    const result = await mcp.callTool({ name: 'oracle', arguments: { seed: 'moss' } });
    expect(result.structuredContent).toEqual({ omen: drawOmen('moss') });
    expect(result.content).toEqual([{ type: 'text', text: JSON.stringify({ omen: drawOmen('moss') }) }]);
  });

  it('wraps a non-object output as { result } in structuredContent', async () => {
    const mcp = await client({ tools: ['list'] }, new ToolRegistry().register(list));
    const result = await mcp.callTool({ name: 'list', arguments: { size: 3 } });
    expect(result.structuredContent).toEqual({ result: [0, 1, 2] });
    expect(result.content).toEqual([{ type: 'text', text: '[0,1,2]' }]);
  });

  it('turns a throwing tool and bad parameters into isError results with a code', async () => {
    const mcp = await client(
      { tools: ['oracle', 'broken'] },
      new ToolRegistry().register(oracleTool()).register(broken),
    );
    const thrown = await mcp.callTool({ name: 'broken', arguments: {} });
    expect(thrown).toMatchObject({ isError: true, structuredContent: { code: 'TOOL_FAILED' } });
    expect(thrown.content).toEqual([
      { type: 'text', text: 'TOOL_FAILED: tool "broken" failed: gears jammed' },
    ]);
    const invalid = await mcp.callTool({ name: 'oracle', arguments: { seed: 1 } });
    expect(invalid).toMatchObject({ isError: true, structuredContent: { code: 'INVALID_PARAMETERS' } });
  });

  it('caps a long output', async () => {
    const mcp = await client(
      { tools: ['list'], limits: { outputChars: 100 } },
      new ToolRegistry().register(list),
    );
    const result = await mcp.callTool({ name: 'list', arguments: { size: 1000 } });
    expect(result.structuredContent).toMatchObject({ truncated: true });
    expect((result.structuredContent as { text: string }).text).toContain('[… truncated:');
  });

  it("ends a call by the time its client says it waits (callerTimeKey in _meta), and without it by the tool's own", async () => {
    const mcp = await client({ tools: ['clock'] }, new ToolRegistry().register(clock));
    const told = await mcp.callTool({ name: 'clock', arguments: {}, _meta: { [callerTimeKey]: 180_000 } });
    const { finite, leftMs } = told.structuredContent as { finite: boolean; leftMs: number };
    expect(finite).toBe(true);
    expect(leftMs).toBeGreaterThan(0);
    expect(leftMs).toBeLessThanOrEqual(180_000);
    const untold = await mcp.callTool({ name: 'clock', arguments: {} });
    expect(untold.structuredContent).toEqual({ finite: false, leftMs: null });
    const junk = await mcp.callTool({ name: 'clock', arguments: {}, _meta: { [callerTimeKey]: 'soon' } });
    expect(junk.structuredContent).toEqual({ finite: false, leftMs: null });
  });

  it('pages tools/list', async () => {
    const registry = new ToolRegistry().register(oracleTool()).register(secret).register(list);
    const mcp = await client({ tools: ['oracle', 'secret', 'list'], pageSize: 2 }, registry);
    const first = await mcp.listTools();
    expect(first.tools.map((tool) => tool.name)).toEqual(['oracle', 'secret']);
    const second = await mcp.listTools({ cursor: first.nextCursor! });
    expect(second.tools.map((tool) => tool.name)).toEqual(['list']);
    expect(second.nextCursor).toBeUndefined();
    await expect(mcp.listTools({ cursor: 'nonsense' })).rejects.toThrow(/invalid tools\/list cursor/);
  });

  it('refuses to expose a tool that is not registered, or none', () => {
    const registry = new ToolRegistry().register(oracleTool());
    expect(() => createMcpServer(registry, { tools: ['oracle', 'read_file'] })).toThrow(
      /cannot expose tool "read_file": it is not registered in-process \(registered: oracle\)/,
    );
    expect(() => createMcpServer(registry, { tools: [] })).toThrow(/no tools to expose/);
  });
});
