import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  type AgentHandle,
  defineTool,
  ToolGate,
  ToolgateError,
  ToolRegistry,
  type ToolResult,
  toolResult,
} from '@toolgate/core';
import { createMcpServer, type HttpEndpoint, serveHttp } from '@toolgate/mcp-server';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { connectClosingAfterEach, shifty } from './testing-fixtures/servers.js';

// 6,000 bytes of every value 0–255: any re-encoding or cut would show.
const imageBytes = Buffer.from(Array.from({ length: 6000 }, (_, index) => (index * 7 + (index >> 8)) % 256));
const image = imageBytes.toString('base64');
const blocks = [
  { type: 'text', text: 'the grove at dusk:' },
  { type: 'image', data: image, mimeType: 'image/png' },
  { type: 'text', text: 'moss on the north side' },
];
const empty = { type: 'object', properties: {} };
const snapshotServer = (results: Record<string, unknown>) =>
  shifty('camera', {
    tools: Object.keys(results).map((name) => ({
      name,
      description: `The ${name} tool.`,
      inputSchema: empty,
    })),
    results,
  });

/** An in-process tool that asks `agent` for `tool` and returns what it got: how a gate's result is served on. */
function relay(agent: AgentHandle, tool: string) {
  return defineTool({
    name: tool,
    description: `Relays ${tool} through the gate.`,
    input: z.object({}),
    run: async () => {
      const result = await agent.callTool(tool, {});
      if (result.isError) throw new ToolgateError(result.error.code, result.error.message);
      return result.content ? toolResult({ output: result.output, content: result.content }) : result.output;
    },
  });
}

describe('content blocks of a remote result (a real SDK server over stdio, the resolver, the gate)', () => {
  const connect = connectClosingAfterEach();
  let endpoint: HttpEndpoint | undefined;
  let client: Client | undefined;
  afterEach(async () => {
    await client?.close();
    await endpoint?.close();
    client = undefined;
    endpoint = undefined;
  });

  it('keeps text + image + text byte for byte through MCPResolver → gate → toolgate-mcp → a raw SDK client', async () => {
    const resolver = await connect([snapshotServer({ snapshot: { content: blocks } })]);
    const gate = new ToolGate(new ToolRegistry().setResolver(resolver));
    const photographer = gate.forAgent({ name: 'photographer', tools: ['snapshot'] });

    const direct = await photographer.callTool('snapshot', {});
    expect(direct).toMatchObject({ isError: false, output: null, content: blocks });

    const served = new ToolRegistry().register(relay(photographer, 'snapshot'));
    endpoint = await serveHttp(() => createMcpServer(served, { tools: ['snapshot'] }));
    client = new Client({ name: 'raw', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(endpoint.url)));
    const result = await client.callTool({ name: 'snapshot', arguments: {} });

    expect(result.content).toEqual(blocks);
    expect(result.structuredContent).toBeUndefined();
    const data = (result.content as { data?: string }[])[1]!.data!;
    expect(data).toBe(image);
    expect(Buffer.from(data, 'base64').equals(imageBytes)).toBe(true);
  });

  it('keeps structuredContent as the output beside the blocks, and every kind of block', async () => {
    const every = [
      { type: 'audio', data: image, mimeType: 'audio/wav' },
      { type: 'resource_link', uri: 'file:///grove/dusk.png', name: 'dusk.png', size: 6000 },
      {
        type: 'resource',
        resource: { uri: 'file:///grove/notes.txt', mimeType: 'text/plain', text: 'moss' },
      },
      { type: 'resource', resource: { uri: 'file:///grove/dusk.bin', blob: image } },
    ];
    const resolver = await connect([
      snapshotServer({ every: { structuredContent: { frames: 4 }, content: every } }),
    ]);
    const agent = new ToolGate(new ToolRegistry().setResolver(resolver)).forAgent({
      name: 'a',
      tools: ['every'],
    });
    expect(await agent.callTool('every', {})).toMatchObject({ output: { frames: 4 }, content: every });
  });

  it('no longer turns an image-only result into base64 inside JSON cut by the output cap', async () => {
    const resolver = await connect([snapshotServer({ snapshot: { content: [blocks[1]] } })]);
    const gate = new ToolGate(new ToolRegistry().setResolver(resolver), { limits: { outputChars: 100 } });
    const result = await gate.forAgent({ name: 'a', tools: ['snapshot'] }).callTool('snapshot', {});
    expect(result).toEqual({
      callId: expect.any(String),
      tool: 'snapshot',
      isError: false,
      output: null,
      content: [blocks[1]],
      durationMs: expect.any(Number),
    });
  });

  it("caps each block on its own, at the gate's limits: an image over the byte cap is replaced by a text saying so, texts are cut", async () => {
    const resolver = await connect([snapshotServer({ snapshot: { content: blocks } })]);
    const agent = new ToolGate(new ToolRegistry().setResolver(resolver), {
      limits: { contentBytes: 5999, outputChars: 20 },
    }).forAgent({
      name: 'a',
      tools: ['snapshot'],
    });
    const result = (await agent.callTool('snapshot', {})) as Extract<ToolResult, { isError: false }>;
    expect(result.content).toEqual([
      { type: 'text', text: 'the grove at dusk:' },
      {
        type: 'text',
        text: '[image ("image/png", 6000 bytes) omitted: over the cap of 5999 bytes for one part]',
      },
      { type: 'text', text: 'moss on the north si\n[… truncated: 2 more characters not shown]' },
    ]);
  });

  it('refuses a block that is not base64 where bytes are due as INVALID_OUTPUT naming the tool and server', async () => {
    const resolver = await connect([
      snapshotServer({ snapshot: { content: [{ type: 'image', data: 'a b c', mimeType: 'image/png' }] } }),
    ]);
    const agent = new ToolGate(new ToolRegistry().setResolver(resolver)).forAgent({
      name: 'a',
      tools: ['snapshot'],
    });
    const result = await agent.callTool('snapshot', {});
    // The SDK's own check (atob) lets the spaces through; toolgate does not.
    expect(result).toMatchObject({ isError: true, error: { code: 'INVALID_OUTPUT' } });
    expect(result.isError && result.error.message).toBe(
      'the output of tool "snapshot" on MCP server "camera" (content part 0) is not a content part: ' +
        'its "data" is not base64 (A–Z, a–z, 0–9, "+", "/", "=" padding); content parts take the shapes of MCP content blocks (see toolResult)',
    );
  });
});
