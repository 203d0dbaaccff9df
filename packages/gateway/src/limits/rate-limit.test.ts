import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../config-load.js';
import { Gateway } from '../gateway.js';
import { replayGatewayLedger } from '../replay.js';
import { changingServer, scratch } from '../testing-fixtures/gateway.js';

describe('per-client rate limits', { timeout: 120_000 }, () => {
  const place = scratch();
  const ledger = join(place.dir, 'limits.ledger.jsonl');
  let gateway: Gateway;
  beforeAll(async () => {
    const path = join(place.dir, 'gateway.yaml');
    writeFileSync(
      path,
      `servers:
  mine: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(changingServer)}], prefix: mine }
clients:
  ci: { tools: ["mine__*"], rate_limit: { calls_per_second: 0.001, burst: 2 } }
  slow: { tools: ["mine__*"], rate_limit: { concurrent_calls: 1 } }
  desktop: { tools: ["mine__*"] }
ledger: ${JSON.stringify(ledger)}
`,
    );
    gateway = await Gateway.start(await loadConfig(path), { log: () => undefined });
  }, 60_000);
  afterAll(async () => {
    await gateway?.close();
    place.remove();
  });
  const records = () =>
    readFileSync(ledger, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { kind: string; actor: string; payload: Record<string, unknown> });

  it('refuses a client past its calls a second with RATE_LIMITED, recorded like any refusal, while another client is served', async () => {
    for (let call = 0; call < 2; call++) {
      expect(await gateway.callTool({ client: 'ci', tool: 'mine__pid', parameters: {} })).toMatchObject({
        isError: false,
      });
    }
    const refused = await gateway.callTool({
      client: 'ci',
      tool: 'mine__note',
      parameters: { text: 'one too many' },
    });
    expect(refused).toMatchObject({
      isError: true,
      error: {
        code: 'RATE_LIMITED',
        message: expect.stringContaining('clients.ci.rate_limit in'),
      },
    });
    expect(await gateway.callTool({ client: 'desktop', tool: 'mine__pid', parameters: {} })).toMatchObject({
      isError: false,
    });
    // an ungranted call is refused for that, and takes nothing from the limit
    const ungranted = await gateway.callTool({ client: 'ci', tool: 'nope__x', parameters: {} });
    expect(ungranted).toMatchObject({ isError: true, error: { code: 'CAPABILITY_VIOLATION' } });

    const calls = records().filter((record) => record.payload.tool === 'mine__note');
    expect(calls.map((record) => record.kind)).toEqual(['tool.called', 'tool.returned']); // policy never asked
    expect(calls[1]?.payload.error).toMatchObject({ code: 'RATE_LIMITED' });
    expect(gateway.metrics.render({ sessions: new Map(), upstreams: [] })).toContain(
      'toolgate_gateway_calls_total{client="ci",outcome="RATE_LIMITED"} 1',
    );
  });

  it('refuses a client past its calls at once until one ends', async () => {
    const stop = new AbortController();
    const hanging = gateway.callTool(
      { client: 'slow', tool: 'mine__hang', parameters: {} },
      { signal: stop.signal },
    );
    await vi.waitFor(
      () => expect(records().some((record) => record.payload.tool === 'mine__hang')).toBe(true),
      {
        timeout: 30_000,
      },
    );
    const second = await gateway.callTool({ client: 'slow', tool: 'mine__pid', parameters: {} });
    expect(second).toMatchObject({ isError: true, error: { code: 'RATE_LIMITED' } });
    expect(await gateway.callTool({ client: 'desktop', tool: 'mine__pid', parameters: {} })).toMatchObject({
      isError: false,
    });
    stop.abort();
    expect(await hanging).toMatchObject({ isError: true, error: { code: 'CANCELLED' } });
    expect(await gateway.callTool({ client: 'slow', tool: 'mine__pid', parameters: {} })).toMatchObject({
      isError: false,
    });
  });

  it('replays a ledger holding rate-limited calls byte for byte', async () => {
    const target = join(place.dir, 'replayed.jsonl');
    await replayGatewayLedger(ledger, target);
    expect(readFileSync(target, 'utf8')).toBe(readFileSync(ledger, 'utf8'));
  });
});
