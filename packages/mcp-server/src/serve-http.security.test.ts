import { request } from 'node:http';
import { oracleTool } from '@toolgate/builtins';
import { ToolRegistry } from '@toolgate/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createMcpServer } from './create-server.js';
import { type HttpEndpoint, type HttpServeOptions, serveHttp } from './serve-http.js';

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
});

interface Sent {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Send the body in chunks without a Content-Length. */
  chunked?: boolean;
}

function send(
  endpoint: HttpEndpoint,
  sent: Sent = {},
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  const url = new URL(endpoint.url);
  const body = sent.body ?? initialize;
  const headers: Record<string, string | number> = {
    host: url.host,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    ...(sent.chunked ? {} : { 'content-length': Buffer.byteLength(body) }),
    ...sent.headers,
  };
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: url.hostname,
        port: url.port,
        path: sent.path ?? url.pathname,
        method: sent.method ?? 'POST',
        headers,
      },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => {
          text += chunk.toString('utf8');
        });
        response.on('end', () =>
          resolve({ status: response.statusCode!, body: text, headers: response.headers }),
        );
      },
    );
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      // The server may close the connection after refusing an oversize body mid-upload.
      if (error.code === 'EPIPE' || error.code === 'ECONNRESET')
        resolve({ status: -1, body: '', headers: {} });
      else reject(error);
    });
    if (sent.chunked) {
      const buffer = Buffer.from(body);
      for (let offset = 0; offset < buffer.length; offset += 64 * 1024)
        outgoing.write(buffer.subarray(offset, offset + 64 * 1024));
      outgoing.end();
    } else {
      outgoing.end(body);
    }
  });
}

describe('serveHttp security', () => {
  let endpoint: HttpEndpoint | undefined;
  afterEach(async () => {
    await endpoint?.close();
    endpoint = undefined;
  });
  const start = async (options: HttpServeOptions = {}) => {
    const registry = new ToolRegistry().register(oracleTool());
    endpoint = await serveHttp(() => createMcpServer(registry, { tools: ['oracle'] }), options);
    return endpoint;
  };

  it('binds loopback by default and answers a well-formed request', async () => {
    const served = await start();
    expect(new URL(served.url).hostname).toBe('127.0.0.1');
    const answer = await send(served);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ result: { serverInfo: { name: 'toolgate-mcp' } } });
  });

  it('refuses a foreign Host header with 403 (DNS rebinding)', async () => {
    const served = await start();
    const answer = await send(served, { headers: { host: 'evil.example.com' } });
    expect(answer.status).toBe(403);
    expect(answer.body).toContain('Host header');
  });

  it('accepts localhost as a Host for a loopback server, with its port', async () => {
    const served = await start();
    const port = new URL(served.url).port;
    expect((await send(served, { headers: { host: `localhost:${port}` } })).status).toBe(200);
    expect((await send(served, { headers: { host: 'localhost:1' } })).status).toBe(403);
  });

  it('accepts an extra Host (a load balancer name) and its Origin only when configured', async () => {
    const served = await start({
      allowedHosts: ['tools.internal:443'],
      allowedOrigins: ['https://app.internal'],
    });
    expect((await send(served, { headers: { host: 'tools.internal:443' } })).status).toBe(200);
    expect((await send(served, { headers: { host: 'tools.internal:80' } })).status).toBe(403);
    expect((await send(served, { headers: { origin: 'https://app.internal' } })).status).toBe(200);
    expect((await send(served, { headers: { origin: 'https://app.internal.evil.com' } })).status).toBe(403);
  });

  it('refuses a foreign Origin with 403 and accepts its own', async () => {
    const served = await start();
    const own = `http://${new URL(served.url).host}`;
    expect((await send(served, { headers: { origin: 'http://evil.example.com' } })).status).toBe(403);
    expect((await send(served, { headers: { origin: own } })).status).toBe(200);
  });

  it('requires the bearer token when one is set (401), checked after Host', async () => {
    const served = await start({ token: 'tok' });
    const missing = await send(served);
    expect(missing.status).toBe(401);
    expect(missing.headers['www-authenticate']).toBe('Bearer');
    expect((await send(served, { headers: { authorization: 'Bearer nope' } })).status).toBe(401);
    expect((await send(served, { headers: { authorization: 'Bearer tok' } })).status).toBe(200);
    expect(
      (await send(served, { headers: { authorization: 'Bearer tok', host: 'evil.example.com' } })).status,
    ).toBe(403);
  });

  it('refuses an oversize body with 413, whether declared or streamed', async () => {
    const served = await start({ maxBodyBytes: 1024 });
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(4096) } });
    expect((await send(served, { body: big })).status).toBe(413);
    const streamed = await send(served, { body: big, chunked: true });
    expect([413, -1]).toContain(streamed.status);
    expect((await send(served)).status).toBe(200);
  });

  it('refuses other methods (405), other paths (404) and a body that is not JSON (400)', async () => {
    const served = await start();
    const get = await send(served, { method: 'GET', body: '' });
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe('POST');
    expect((await send(served, { path: '/other' })).status).toBe(404);
    const junk = await send(served, { body: '{not json' });
    expect(junk.status).toBe(400);
    expect(JSON.parse(junk.body)).toMatchObject({ error: { code: -32700 } });
  });
});
