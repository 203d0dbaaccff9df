import { writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../config-load.js';
import { Gateway } from '../gateway.js';
import { type GatewayHttpEndpoint, serveGatewayHttp } from '../serve-http.js';
import { changingServer, scratch, tokens } from '../testing-fixtures/gateway.js';

const headersOf = (token: string) => ({
  authorization: `Bearer ${token}`,
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
});

/** A bare initialize; returns the HTTP status, the session id and the body text. */
async function initialize(
  url: string,
  token: string,
): Promise<{ status: number; id: string | null; text: string }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: headersOf(token),
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'ops', version: '1' } },
    }),
  });
  return { status: response.status, id: response.headers.get('mcp-session-id'), text: await response.text() };
}

/** A GET with a chosen Host header (fetch will not send a forged one). */
function getWithHost(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const sent = request(
      { host: target.hostname, port: target.port, path: target.pathname, headers: { host } },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    sent.once('error', reject);
    sent.end();
  });
}

describe('the HTTP listener: bounded sessions, /healthz and /metrics', { timeout: 120_000 }, () => {
  const place = scratch();
  let gateway: Gateway;
  let endpoint: GatewayHttpEndpoint;
  let base: string;
  beforeAll(async () => {
    const config = join(place.dir, 'gateway.yaml');
    writeFileSync(
      config,
      `servers:
  mine: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(changingServer)}], prefix: mine }
clients:
  agent: { token_env: AGENT_TOKEN, tools: ["mine__pid"] }
  desktop: { token_env: DESKTOP_TOKEN, tools: ["mine__pid"] }
http: { max_sessions_per_client: 3, session_idle_ms: 600000 }
ledger: ./gateway.ledger.jsonl
durability: none
`,
    );
    const env = { AGENT_TOKEN: tokens.agent, DESKTOP_TOKEN: tokens.desktop };
    const loaded = await loadConfig(config, env);
    expect(loaded.http).toMatchObject({ maxSessionsPerClient: 3, sessionIdleMs: 600_000 });
    gateway = await Gateway.start(loaded, { log: () => {} });
    endpoint = await serveGatewayHttp(gateway, { ...loaded.http, port: 0, env });
    base = endpoint.url.replace(/\/mcp$/, '');
  }, 60_000);
  afterAll(async () => {
    await endpoint?.close();
    await gateway?.close();
    place.remove();
  });

  it("refuses a client's session past its cap, naming the config entry, while another client still connects", async () => {
    const held = [];
    for (let index = 0; index < 3; index += 1) held.push(await initialize(endpoint.url, tokens.agent));
    expect(held.map((session) => session.status)).toEqual([200, 200, 200]);
    const over = await initialize(endpoint.url, tokens.agent);
    expect(over.status).toBe(429);
    expect((JSON.parse(over.text) as { error: { message: string } }).error.message).toMatch(
      /client "agent" already holds 3 open sessions.*http\.max_sessions_per_client in .*gateway\.yaml/,
    );
    expect((await initialize(endpoint.url, tokens.desktop)).status).toBe(200);
    // one closed, one may open again
    const closed = await fetch(endpoint.url, {
      method: 'DELETE',
      headers: { ...headersOf(tokens.agent), 'mcp-session-id': held[0]!.id! },
    });
    expect(closed.status).toBe(200);
    expect((await initialize(endpoint.url, tokens.agent)).status).toBe(200);
    expect(endpoint.sessions()).toBe(4);
  });

  it('answers /healthz with each upstream up, 503 naming one that is down, and 200 again once it is back', async () => {
    const healthy = await fetch(`${base}/healthz`);
    expect(healthy.status).toBe(200);
    expect(await healthy.json()).toEqual({ status: 'ok', upstreams: [{ name: 'mine', up: true }] });
    process.kill((await gateway.resolver.pid('mine'))!, 'SIGKILL');
    await vi.waitFor(
      async () => {
        const down = await fetch(`${base}/healthz`);
        expect(down.status).toBe(503);
        expect(await down.json()).toEqual({ status: 'degraded', upstreams: [{ name: 'mine', up: false }] });
      },
      { timeout: 60_000, interval: 100 },
    );
    expect(await gateway.callTool({ client: 'agent', tool: 'mine__pid', parameters: {} })).toMatchObject({
      isError: false,
    });
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
  });

  it('serves /metrics as Prometheus text: calls by outcome, latencies, sessions, upstream state, refused sessions', async () => {
    await gateway.callTool({ client: 'desktop', tool: 'mine__pid', parameters: {} });
    await gateway.callTool({ client: 'desktop', tool: 'mine__note', parameters: { text: 'x' } });
    const response = await fetch(`${base}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    expect(text).toContain('toolgate_gateway_calls_total{client="desktop",outcome="ok"} 1');
    expect(text).toContain('toolgate_gateway_calls_total{client="desktop",outcome="CAPABILITY_VIOLATION"} 1');
    expect(text).toMatch(/toolgate_gateway_call_duration_seconds_count [1-9]/);
    expect(text).toContain('toolgate_gateway_sessions{client="agent"} 3');
    expect(text).toContain('toolgate_gateway_sessions_refused_total{client="agent"} 1');
    expect(text).toContain('toolgate_gateway_upstream_up{upstream="mine"} 1');
  });

  it('keeps /healthz and /metrics behind the Host check', async () => {
    expect(await getWithHost(`${base}/metrics`, 'evil.example')).toBe(403);
    expect(await getWithHost(`${base}/healthz`, 'evil.example')).toBe(403);
  });
});
