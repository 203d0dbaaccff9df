import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { oracleTool } from '@toolgate/builtins';
import { type CallObserver, ToolRegistry } from '@toolgate/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createMcpServer } from './create-server.js';
import { type HttpEndpoint, serveHttp } from './serve-http.js';

describe("createMcpServer's observer (served over real streamable HTTP)", () => {
  let endpoint: HttpEndpoint | undefined;
  let client: Client | undefined;
  afterEach(async () => {
    await client?.close();
    await endpoint?.close();
  });

  it('is told of every tools/call, an unknown tool included, with how each ended', async () => {
    const seen: string[] = [];
    const observer: CallObserver = {
      callStarted: (call) => {
        seen.push(`started ${call.agent} ${call.tool}`);
        return { ended: (ending) => seen.push(`ended ${call.tool} ${ending.error?.code ?? 'ok'}`) };
      },
    };
    const registry = new ToolRegistry().register(oracleTool());
    endpoint = await serveHttp(() => createMcpServer(registry, { tools: ['oracle'], observer }));
    client = new Client({ name: 'test', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(endpoint.url)));
    await client.callTool({ name: 'oracle', arguments: { seed: 'moss' } });
    const refused = await client.callTool({ name: 'secret', arguments: {} });
    expect(refused.isError).toBe(true);
    expect(seen).toEqual([
      'started mcp-client oracle',
      'ended oracle ok',
      'started mcp-client secret',
      'ended secret UNKNOWN_TOOL',
    ]);
  });
});
