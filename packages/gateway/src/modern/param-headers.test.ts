import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config-load.js';
import { Gateway } from '../gateway.js';
import { type GatewayHttpEndpoint, serveGatewayHttp } from '../serve-http.js';
import { scratch, tokens } from '../testing-fixtures/gateway.js';
import { postModernCall } from '../testing-fixtures/modern-call.js';
import { type ModernUpstream, startModernUpstream } from '../testing-fixtures/modern-upstream.js';

const env = { DESKTOP_TOKEN: tokens.desktop };

/** A raw modern `tools/call` of `md__forecast` with `arguments` and the `Mcp-Param-*` headers given. */
function callForecast(url: string, parameters: unknown, paramHeaders: Record<string, string>) {
  return postModernCall(url, { name: 'md__forecast', arguments: parameters }, { headers: paramHeaders });
}

describe('the gateway checks a modern call’s Mcp-Param-* headers against the tool it lists (SEP-2243)', {
  timeout: 120_000,
}, () => {
  const place = scratch();
  let upstream: ModernUpstream;
  let gateway: Gateway;
  let endpoint: GatewayHttpEndpoint;
  beforeAll(async () => {
    upstream = await startModernUpstream({ routed: true });
    const path = join(place.dir, 'gateway.yaml');
    writeFileSync(
      path,
      [
        'servers:',
        `  modern: { url: ${JSON.stringify(upstream.url)}, prefix: md }`,
        'clients:',
        '  desktop: { token_env: DESKTOP_TOKEN, tools: ["md__*"] }',
        'policy: { default: allow, rules: [] }',
        `ledger: ${JSON.stringify(join(place.dir, 'gateway.ledger.jsonl'))}`,
        '',
      ].join('\n'),
    );
    gateway = await Gateway.start(await loadConfig(path, env), { log: () => undefined });
    endpoint = await serveGatewayHttp(gateway, { env, port: 0 });
  }, 120_000);
  afterAll(async () => {
    await endpoint?.close();
    await gateway?.close();
    await upstream?.close();
    place.remove();
  });

  it.each([
    ['a header that does not match its argument', { 'mcp-param-region': 'south' }],
    ['a missing header for an argument the call carries', {}],
    ['a header whose Base64 sentinel is not valid Base64', { 'mcp-param-region': '=?base64?n*rth?=' }],
  ])('refuses %s with 400 / -32020, and calls no upstream', async (_case, headers) => {
    const response = await callForecast(endpoint.url, { region: 'north' }, headers);
    expect(response.status).toBe(400);
    const answer = (await response.json()) as { id: unknown; error: { code: number; message: string } };
    expect(answer).toMatchObject({ id: 7, error: { code: -32020 } });
    expect(answer.error.message).toContain('Mcp-Param-Region');
    expect(upstream.forecasts).toEqual([]);
  });

  it('runs a call whose header matches its argument', async () => {
    const response = await callForecast(endpoint.url, { region: 'north' }, { 'mcp-param-region': 'north' });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toContain('sunny in north');
    expect(upstream.forecasts).toEqual(['north']);
  });
});
