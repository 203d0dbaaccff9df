import { ToolRegistry } from '@toolgate/core';
import { describe, expect, it } from 'vitest';
import { createMcpServer } from './create-server.js';
import { serveHttp } from './serve-http.js';

const create = () => createMcpServer(new ToolRegistry(), { tools: [] });

describe('serveHttp as a library refuses what toolgate-mcp refuses', () => {
  it('refuses an unauthenticated bind to a non-loopback address, binding nothing', async () => {
    await expect(serveHttp(create, { host: '0.0.0.0', port: 0 })).rejects.toMatchObject({
      code: 'INVALID_DEFINITION',
      message: expect.stringMatching(/0\.0\.0\.0 is not loopback.*token/),
    });
  });

  it('binds a non-loopback address with a token, or with allowUnauthenticated on purpose', async () => {
    const withToken = await serveHttp(create, { host: '0.0.0.0', port: 0, token: 'a'.repeat(32) });
    await withToken.close();
    const open = await serveHttp(create, { host: '0.0.0.0', port: 0, allowUnauthenticated: true });
    await open.close();
    expect(new URL(open.url).hostname).toBe('0.0.0.0');
  });

  it('binds loopback without a token', async () => {
    const endpoint = await serveHttp(create, { port: 0 });
    expect(new URL(endpoint.url).hostname).toBe('127.0.0.1');
    await endpoint.close();
  });
});
