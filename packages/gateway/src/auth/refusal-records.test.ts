import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config-load.js';
import { Gateway } from '../gateway.js';
import { type GatewayHttpEndpoint, serveGatewayHttp } from '../serve-http.js';
import {
  startAuthorizationServer,
  type TestAuthorizationServer,
} from '../testing-fixtures/authorization-server.mjs';
import { changingServer, scratch } from '../testing-fixtures/gateway.js';
import { RefusalRecords } from './refusal-records.js';

type Noted = { kind: string; payload: Record<string, unknown> };

describe('RefusalRecords', () => {
  it('records the first refusals of each address per window in full, then one summary of the rest', async () => {
    const noted: Noted[] = [];
    let now = 1_000_000;
    const records = new RefusalRecords(async (kind, payload) => void noted.push({ kind, payload }), {
      perSource: 3,
      total: 5,
      windowMs: 10_000,
      now: () => now,
    });
    for (let index = 0; index < 10; index++)
      await records.refused('10.0.0.1', { status: 401, reason: 'forged' });
    for (let index = 0; index < 4; index++)
      await records.refused('10.0.0.2', { status: 401, reason: 'forged' });
    await records.refused('10.0.0.3', { status: 401, reason: 'forged' });
    // 3 of .1, then 2 of .2 until the total of 5; the rest counted
    expect(noted.map((line) => [line.kind, line.payload.from])).toEqual([
      ['access.refused', '10.0.0.1'],
      ['access.refused', '10.0.0.1'],
      ['access.refused', '10.0.0.1'],
      ['access.refused', '10.0.0.2'],
      ['access.refused', '10.0.0.2'],
    ]);
    now += 10_000; // the next window: its first refusal writes the last window's summary first
    await records.refused('10.0.0.2', { status: 403, reason: 'no match' });
    expect(noted.slice(5)).toEqual([
      {
        kind: 'access.refused.summary',
        payload: {
          windowStart: new Date(1_000_000).toISOString(),
          windowMs: 10_000,
          notRecorded: 10,
          sources: ['10.0.0.1 7', '10.0.0.2 2', '10.0.0.3 1'],
          otherSources: 0,
          limits: '3 per address, 5 in all, per window',
        },
      },
      { kind: 'access.refused', payload: { status: 403, reason: 'no match', from: '10.0.0.2' } },
    ]);
    await records.flush(); // nothing went unrecorded in this window: no summary
    expect(noted).toHaveLength(7);
  });
});

describe('a flood of forged access tokens over HTTP', { timeout: 180_000 }, () => {
  const place = scratch();
  const ledger = join(place.dir, 'flood.ledger.jsonl');
  let server: TestAuthorizationServer;
  let gateway: Gateway;
  let endpoint: GatewayHttpEndpoint;

  beforeAll(async () => {
    server = await startAuthorizationServer({
      clients: [{ clientId: 'ops-bot', secret: 'ops-bot-secret-0123456789abcdef', scope: 'tools' }],
    });
    const path = join(place.dir, 'gateway.yaml');
    writeFileSync(
      path,
      `servers:
  mine: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(changingServer)}], prefix: mine }
oauth: { issuer: ${server.issuer}, scopes: [tools] }
clients:
  ops: { match: { client_id: [ops-bot] }, tools: ["mine__pid"] }
ledger: ${JSON.stringify(ledger)}
`,
    );
    gateway = await Gateway.start(await loadConfig(path, {}), { log: () => undefined });
    endpoint = await serveGatewayHttp(gateway, { env: {}, port: 0 });
  }, 120_000);
  afterAll(async () => {
    await endpoint?.close().catch(() => undefined); // closed by the test already
    await gateway?.close();
    await server?.close();
    place.remove();
  });

  it('records 20 refusals of one address in full and counts the rest in one summary', async () => {
    const good = await server.token('ops-bot', { resource: endpoint.url });
    const [header, payload, signature] = good.split('.');
    for (let index = 0; index < 60; index++) {
      const claims = {
        ...JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')),
        sub: `forged-${index}`,
      };
      const forged = [header, Buffer.from(JSON.stringify(claims)).toString('base64url'), signature].join('.');
      const response = await fetch(endpoint.url, {
        method: 'POST',
        headers: { authorization: `Bearer ${forged}`, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(response.status).toBe(401);
      await response.body?.cancel();
    }
    await endpoint.close(); // the listener's close writes the window's summary
    const lines = readFileSync(ledger, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Noted);
    const refused = lines.filter((line) => line.kind === 'access.refused');
    expect(refused).toHaveLength(20);
    expect(refused.map((line) => line.payload.claimedSubject)).toEqual(
      Array.from({ length: 20 }, (_, index) => `forged-${index}`),
    );
    expect(new Set(refused.map((line) => line.payload.from))).toEqual(new Set(['127.0.0.1']));
    const summaries = lines.filter((line) => line.kind === 'access.refused.summary');
    expect(summaries).toHaveLength(1);
    expect(summaries[0]!.payload).toMatchObject({ notRecorded: 40, sources: ['127.0.0.1 40'] });
  });
});
