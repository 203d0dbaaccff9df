import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config-load.js';
import { Gateway } from '../gateway.js';
import { type GatewayHttpEndpoint, serveGatewayHttp } from '../serve-http.js';
import { configText, connectHttp, scratch, sdkClient, textOf, tokens } from '../testing-fixtures/gateway.js';
import { type ModernUpstream, startModernUpstream } from '../testing-fixtures/modern-upstream.js';

const env = { DESKTOP_TOKEN: tokens.desktop, AGENT_TOKEN: tokens.agent };

describe('a 2025-11-25 client through the gateway to a 2026-07-28-only upstream', {
  timeout: 180_000,
}, () => {
  const place = scratch();
  let upstream: ModernUpstream;
  let gateway: Gateway;
  let endpoint: GatewayHttpEndpoint;
  let client: Client;
  beforeAll(async () => {
    upstream = await startModernUpstream();
    const path = join(place.dir, 'gateway.yaml');
    const text = configText(place.workspace)
      .replace(
        'servers:\n',
        `servers:\n  modern:\n    url: ${JSON.stringify(upstream.url)}\n    prefix: md\n`,
      )
      .replace('"mine__*"]', '"mine__*", "md__*"]')
      .replace('./gateway.ledger.jsonl', join(place.dir, 'gateway.ledger.jsonl'));
    writeFileSync(path, text);
    gateway = await Gateway.start(await loadConfig(path, env), { log: () => undefined });
    endpoint = await serveGatewayHttp(gateway, { env, port: 0 });
    client = sdkClient();
    await connectHttp(client, endpoint.url, tokens.desktop);
  }, 120_000);
  afterAll(async () => {
    await client?.close();
    await endpoint?.close();
    await gateway?.close();
    await upstream?.close();
    place.remove();
  });

  it('lists and calls the modern upstream tool over a 2025-11-25 session; the upstream saw only 2026-07-28', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('md__shout');
    const result = await client.callTool({ name: 'md__shout', arguments: { text: 'and back' } });
    expect(textOf(result)).toBe('AND BACK');
    expect(upstream.eras.length).toBeGreaterThan(0);
    expect(new Set(upstream.eras)).toEqual(new Set(['modern']));
  });

  it("passes the upstream's input_required elicitation to the calling client, and its answer back with the state", async () => {
    const result = await client.callTool({ name: 'md__confirm', arguments: {} });
    expect(JSON.parse(textOf(result))).toEqual({
      answer: { action: 'accept', content: { approve: true } },
      state: 'state-of-confirm',
    });
  });
});
