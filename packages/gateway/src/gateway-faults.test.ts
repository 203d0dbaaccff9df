import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changingServer, connectStdio, scratch, sdkClient, textOf } from './testing-fixtures/gateway.js';

describe('toolgate-gateway when an upstream hangs or writes junk', { timeout: 120_000 }, () => {
  const place = scratch();
  const config = join(place.dir, 'gateway.yaml');
  let client: Client;
  let transport: StdioClientTransport;
  beforeAll(async () => {
    writeFileSync(
      config,
      `servers:
  mine: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(changingServer)}], prefix: mine, timeout_ms: 3000 }
clients:
  desktop: { tools: ["mine__*"] }
stdio: desktop
ledger: ./faults.ledger.jsonl
`,
    );
    client = sdkClient();
    ({ transport } = await connectStdio(client, config));
  }, 120_000);
  afterAll(async () => {
    await client?.close();
    place.remove();
  });
  const pid = async () => textOf(await client.callTool({ name: 'mine__pid', arguments: {} }));

  it('answers a hung call with TIMEOUT naming the upstream, and the next call works', async () => {
    const before = await pid();
    const hung = await client.callTool({ name: 'mine__hang', arguments: {} }, undefined, { timeout: 60_000 });
    expect(hung.isError).toBe(true);
    expect(textOf(hung)).toMatch(/^TIMEOUT: .*"mine"/);
    const after = await pid();
    expect(after).toMatch(/^pid \d+$/);
    expect(after).not.toBe(before); // the hung process was stopped and a new one started
  });

  it('answers a call whose upstream writes junk with TRANSPORT_FAILED naming it, and the next call works', async () => {
    const junk = await client.callTool({ name: 'mine__junk', arguments: {} }, undefined, { timeout: 60_000 });
    expect(junk.isError).toBe(true);
    expect(textOf(junk)).toMatch(/^TRANSPORT_FAILED: .*"mine"/);
    expect(await pid()).toMatch(/^pid \d+$/);
    // the gateway itself is still the same process
    expect(transport.pid).toBeGreaterThan(0);
    process.kill(transport.pid!, 0);
  });
});
