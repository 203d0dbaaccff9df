import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from './config-load.js';
import { Gateway } from './gateway.js';
import { type GatewayHttpEndpoint, serveGatewayHttp } from './serve-http.js';
import {
  agentHeaders,
  agentNoteConfig,
  initializeSession,
  scratch,
  tokens,
} from './testing-fixtures/gateway.js';

/** The HTTP status of a ping on the session. */
async function ping(url: string, session: string): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...agentHeaders, 'mcp-session-id': session },
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }),
  });
  await response.text();
  return response.status;
}

describe('HTTP sessions dropped without DELETE', { timeout: 120_000 }, () => {
  const place = scratch();
  let gateway: Gateway;
  let endpoint: GatewayHttpEndpoint;
  beforeAll(async () => {
    const config = join(place.dir, 'gateway.yaml');
    writeFileSync(config, agentNoteConfig());
    const env = { AGENT_TOKEN: tokens.agent };
    gateway = await Gateway.start(await loadConfig(config, env), { log: () => {} });
    endpoint = await serveGatewayHttp(gateway, { port: 0, env, sessionIdleMs: 1_000 });
  }, 60_000);
  afterAll(async () => {
    await endpoint?.close();
    await gateway?.close();
    place.remove();
  });

  it('closes and forgets an idle session, while one with an open stream stays', async () => {
    const url = endpoint.url;
    // Hold a session open with its standalone SSE stream. On a loaded machine the session may go idle
    // before the stream is opened (a 404 then): take a new one until the stream is open.
    const stream = new AbortController();
    let held = '';
    for (let attempt = 0; attempt < 50 && !held; attempt++) {
      const candidate = await initializeSession(url, '2025-06-18', 'dropper');
      const open = await fetch(url, {
        headers: { ...agentHeaders, 'mcp-session-id': candidate },
        signal: stream.signal,
      });
      if (open.status === 200) held = candidate;
      else expect(open.status).toBe(404);
    }
    expect(held).not.toBe('');
    const dropped = await initializeSession(url, '2025-06-18', 'dropper');
    // The held session is older than the dropped one: were it idle by the sweep's measure, it would go first.
    await vi.waitFor(() => expect(endpoint.sessions()).toBe(1), { timeout: 60_000, interval: 50 });
    expect(await ping(url, dropped)).toBe(404);
    expect(await ping(url, held)).toBe(200);
    stream.abort();
    await vi.waitFor(() => expect(endpoint.sessions()).toBe(0), { timeout: 60_000, interval: 50 });
    expect(await ping(url, held)).toBe(404);
  });

  it('refuses an idle time that is not a positive number of milliseconds', async () => {
    await expect(
      serveGatewayHttp(gateway, { port: 0, sessionIdleMs: 0, env: { AGENT_TOKEN: tokens.agent } }),
    ).rejects.toMatchObject({
      code: 'INVALID_DEFINITION',
      message: expect.stringMatching(/sessionIdleMs 0 is not a positive number/),
    });
  });
});
