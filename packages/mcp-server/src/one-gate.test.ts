import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { drawOmen, oracleTool } from '@toolgate/builtins';
import { ToolRegistry } from '@toolgate/core';
import { describe, expect, it, vi } from 'vitest';
import { createMcpServer, exposingGate } from './create-server.js';
import { serveHttp } from './serve-http.js';

const constructed = vi.hoisted(() => ({ gates: 0 }));

// every ToolGate made is counted: the core module is the real one, its gate subclassed
vi.mock('@toolgate/core', async (importOriginal) => {
  const core = await importOriginal<typeof import('@toolgate/core')>();
  class CountedGate extends core.ToolGate {
    constructor(...parameters: ConstructorParameters<typeof core.ToolGate>) {
      super(...parameters);
      constructed.gates += 1;
    }
  }
  return { ...core, ToolGate: CountedGate };
});

describe("toolgate-mcp's gate", () => {
  it('is one for the whole process: every stateless HTTP request, from every client, runs through it', async () => {
    // as the toolgate-mcp command builds it: one exposing gate, a server per request over it
    const gate = exposingGate(new ToolRegistry().register(oracleTool()));
    expect(constructed.gates).toBe(1);
    const endpoint = await serveHttp(() => createMcpServer(gate, { tools: ['oracle'] }));
    const clients: Client[] = [];
    try {
      for (const seed of ['moss', 'fern', 'lichen']) {
        const client = new Client({ name: `client-${seed}`, version: '1' });
        clients.push(client);
        await client.connect(new StreamableHTTPClientTransport(new URL(endpoint.url)));
        const result = await client.callTool({ name: 'oracle', arguments: { seed } });
        expect(result.structuredContent).toEqual({ omen: drawOmen(seed) });
      }
      expect(constructed.gates).toBe(1);
    } finally {
      await Promise.all(clients.map((client) => client.close()));
      await endpoint.close();
    }
  });
});
