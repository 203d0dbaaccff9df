import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { defineTool, ToolgateError, ToolRegistry, toolResult } from '@toolgate/core';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMcpServer, type McpServerOptions } from './create-server.js';
import { type HttpEndpoint, serveHttp } from './serve-http.js';

const image = Buffer.from(Array.from({ length: 3000 }, (_, index) => (index * 31) % 256)).toString('base64');
const parts = [
  { type: 'text' as const, text: 'the omen, drawn:' },
  { type: 'image' as const, data: image, mimeType: 'image/png' },
  { type: 'text' as const, text: 'read it by moonlight' },
];

const draw = defineTool({
  name: 'draw',
  description: 'Draws an omen as text, an image and text.',
  input: z.object({ withOutput: z.boolean().describe('Also return a JSON output.') }),
  run: ({ withOutput }) =>
    toolResult({ ...(withOutput ? { output: { seed: 'moss' } } : {}), content: parts }),
});
const every = defineTool({
  name: 'every',
  description: 'Returns one part of every kind.',
  input: z.object({}),
  run: () =>
    toolResult({
      content: [
        { type: 'audio', data: image, mimeType: 'audio/wav' },
        {
          type: 'resource_link',
          uri: 'file:///grove/omen.png',
          name: 'omen.png',
          mimeType: 'image/png',
          size: 3000,
        },
        {
          type: 'resource',
          resource: { uri: 'file:///grove/omen.txt', mimeType: 'text/plain', text: 'moss' },
        },
        { type: 'resource', resource: { uri: 'file:///grove/omen.bin', blob: image } },
      ],
    }),
});
const guarded = defineTool({
  name: 'guarded',
  description: 'Refuses, as a confined tool does outside its root.',
  input: z.object({}),
  run: () => {
    throw new ToolgateError('PERMISSION_DENIED', 'path "/etc/passwd" is outside the workspace root');
  },
});

describe('content parts sent by createMcpServer (real streamable HTTP, a raw SDK client)', () => {
  let endpoint: HttpEndpoint | undefined;
  const clients: Client[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    await endpoint?.close();
    endpoint = undefined;
  });

  async function client(options: Partial<McpServerOptions> = {}) {
    const registry = new ToolRegistry().register(draw).register(every).register(guarded);
    endpoint = await serveHttp(() =>
      createMcpServer(registry, { tools: ['draw', 'every', 'guarded'], ...options }),
    );
    const connected = new Client({ name: 'test', version: '1' });
    await connected.connect(new StreamableHTTPClientTransport(new URL(endpoint.url)));
    clients.push(connected);
    return connected;
  }

  it('sends text, image, text as three MCP blocks in order, the image byte for byte, and no JSON text', async () => {
    const mcp = await client();
    const result = await mcp.callTool({ name: 'draw', arguments: { withOutput: false } });
    expect(result.content).toEqual(parts);
    expect(result.structuredContent).toBeUndefined();
    const sent = (result.content as { data?: string }[])[1]!.data!;
    expect(Buffer.from(sent, 'base64').equals(Buffer.from(image, 'base64'))).toBe(true);
  });

  it('sends a JSON output beside the parts as structuredContent', async () => {
    const mcp = await client();
    const result = await mcp.callTool({ name: 'draw', arguments: { withOutput: true } });
    expect(result).toMatchObject({ structuredContent: { seed: 'moss' }, content: parts });
  });

  it('sends audio, resource links and embedded resources in the shapes MCP gives them', async () => {
    const mcp = await client();
    const result = await mcp.callTool({ name: 'every', arguments: {} });
    expect(result.content).toEqual([
      { type: 'audio', data: image, mimeType: 'audio/wav' },
      {
        type: 'resource_link',
        uri: 'file:///grove/omen.png',
        name: 'omen.png',
        mimeType: 'image/png',
        size: 3000,
      },
      { type: 'resource', resource: { uri: 'file:///grove/omen.txt', mimeType: 'text/plain', text: 'moss' } },
      { type: 'resource', resource: { uri: 'file:///grove/omen.bin', blob: image } },
    ]);
  });

  it('caps each part: an image over limits.contentBytes becomes a text part saying so, a long text is cut', async () => {
    const mcp = await client({ limits: { contentBytes: 2999, outputChars: 10 } });
    const result = await mcp.callTool({ name: 'draw', arguments: { withOutput: false } });
    expect(result.content).toEqual([
      { type: 'text', text: 'the omen, \n[… truncated: 6 more characters not shown]' },
      {
        type: 'text',
        text: '[image ("image/png", 3000 bytes) omitted: over the cap of 2999 bytes for one part]',
      },
      { type: 'text', text: 'read it by\n[… truncated: 10 more characters not shown]' },
    ]);
  });

  it('puts the error code at the start of the text of an error result, for clients that read only text', async () => {
    const mcp = await client();
    const result = await mcp.callTool({ name: 'guarded', arguments: {} });
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([
      { type: 'text', text: 'PERMISSION_DENIED: path "/etc/passwd" is outside the workspace root' },
    ]);
    expect(result.structuredContent).toEqual({
      code: 'PERMISSION_DENIED',
      message: 'path "/etc/passwd" is outside the workspace root',
    });
  });
});
