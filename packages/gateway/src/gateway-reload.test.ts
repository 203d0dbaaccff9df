import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  changingServer,
  eventually,
  type StdioGateway,
  scratch,
  startStdioGateway,
  textOf,
} from './testing-fixtures/gateway.js';

const configWith = (tools: string, extra = '') => `servers:
  mine: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(changingServer)}], prefix: mine }
clients:
  desktop: { tools: ${tools} }
stdio: desktop
ledger: ./reload.ledger.jsonl
${extra}`;

describe('toolgate-gateway on SIGHUP', { timeout: 120_000 }, () => {
  const place = scratch();
  const config = join(place.dir, 'gateway.yaml');
  let gateway: StdioGateway;
  beforeAll(async () => {
    writeFileSync(config, configWith('["mine__note", "mine__pid"]'));
    gateway = await startStdioGateway(config);
  }, 120_000);
  afterAll(async () => {
    await gateway?.close();
    place.remove();
  });
  const names = async () => (await gateway.client.listTools()).tools.map((tool) => tool.name).sort();

  it('takes a new grant without dropping the connected client', async () => {
    expect(await names()).toEqual(['mine__note', 'mine__pid']);
    writeFileSync(config, configWith('["mine__pid"]'));
    process.kill(gateway.transport.pid!, 'SIGHUP');
    await eventually(async () => (await names()).join() === 'mine__pid');
    const refused = await gateway.client.callTool({ name: 'mine__note', arguments: { text: 'x' } });
    expect(textOf(refused)).toMatch(/^CAPABILITY_VIOLATION: /);
    expect(textOf(await gateway.client.callTool({ name: 'mine__pid', arguments: {} }))).toMatch(/^pid \d+$/);
  });

  it('refuses a bad config, says so on stderr, and keeps the old one in force', async () => {
    writeFileSync(config, configWith('["mine__*"]').replace('clients:', 'clients: [broken'));
    process.kill(gateway.transport.pid!, 'SIGHUP');
    await eventually(async () => gateway.stderr().includes('reload refused'));
    expect(gateway.stderr()).toMatch(
      /reload refused, the old config is kept: .*gateway\.yaml:\d+: not valid YAML/,
    );
    expect(await names()).toEqual(['mine__pid']);

    writeFileSync(config, configWith('["mine__*"]').replace('prefix: mine', 'prefix: other'));
    process.kill(gateway.transport.pid!, 'SIGHUP');
    await eventually(async () =>
      gateway.stderr().includes('restart the gateway to change its upstream servers'),
    );
    expect(await names()).toEqual(['mine__pid']);
    expect(textOf(await gateway.client.callTool({ name: 'mine__pid', arguments: {} }))).toMatch(/^pid \d+$/);
  });
});
