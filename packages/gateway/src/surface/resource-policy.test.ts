import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { readAll } from '@toolgate/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config-load.js';
import { Gateway } from '../gateway.js';
import { type GatewayHttpEndpoint, serveGatewayHttp } from '../serve-http.js';
import { connectHttp, everythingServer, scratch, tokens } from '../testing-fixtures/gateway.js';

const node = JSON.stringify(process.execPath);
const configText = `servers:
  everything: { command: ${node}, args: [${JSON.stringify(everythingServer)}, stdio], prefix: ev }
clients:
  desktop: { token_env: DESKTOP_TOKEN, tools: ["ev__echo"], resources: ["ev:demo://resource/**"] }
policy:
  default: allow
  rules:
    - { resources: ["demo://resource/static/document/features.md"], decision: deny, reason: features stay private }
    - { resources: ["demo://resource/static/document/*.json"], decision: ask }
    - { tools: ["ev__*"], resources: ["demo://**"], decision: deny, reason: only for tool calls naming it }
ledger: ./resource-policy.ledger.jsonl
`;

describe('policy judges resource reads on their URI', { timeout: 180_000 }, () => {
  const place = scratch();
  let gateway: Gateway;
  let endpoint: GatewayHttpEndpoint;
  let client: Client;
  const reads = async () =>
    (await readAll(gateway.store.read()))
      .filter((event) => event.kind === 'resource.read')
      .map((event) => event.payload as Record<string, unknown>);

  beforeAll(async () => {
    const path = join(place.dir, 'gateway.yaml');
    writeFileSync(path, configText);
    gateway = await Gateway.start(await loadConfig(path), { log: () => undefined });
    endpoint = await serveGatewayHttp(gateway, { port: 0, env: { DESKTOP_TOKEN: tokens.desktop } });
    client = new Client({ name: 'resource-policy-test', version: '1.0.0' });
    await connectHttp(client, endpoint.url, tokens.desktop);
  }, 120_000);
  afterAll(async () => {
    await client?.close().catch(() => undefined);
    await endpoint?.close();
    await gateway?.close();
    place.remove();
  });

  it('reads a granted URI policy allows, refuses one a rule denies (naming the rule), and records both', async () => {
    const allowed = 'demo://resource/static/document/architecture.md';
    const denied = 'demo://resource/static/document/features.md';
    const listed = (await client.listResources()).resources.map((resource) => resource.uri);
    expect(listed).toContain(allowed);
    expect(listed).not.toContain(denied); // what a read would be refused is not offered
    const read = await client.readResource({ uri: allowed });
    expect(read.contents[0]?.uri).toBe(allowed);
    await expect(client.readResource({ uri: denied })).rejects.toThrow(
      /client "desktop" may not read resource "demo:\/\/resource\/static\/document\/features\.md": policy rule 0 denies it: .*features stay private/,
    );
    await expect(client.subscribeResource({ uri: denied })).rejects.toThrow(/policy rule 0 denies it/);
    expect(await reads()).toEqual([
      expect.objectContaining({ client: 'desktop', uri: allowed, outcome: 'read' }),
      expect.objectContaining({
        client: 'desktop',
        uri: denied,
        outcome: 'refused',
        decision: 'deny',
        rule: 0,
      }),
    ]);
  });

  it('refuses a read a rule asks about (the gateway asks no one about a read): never lets it through', async () => {
    const asked = 'demo://resource/static/document/package.json';
    await expect(client.readResource({ uri: asked })).rejects.toThrow(
      /policy rule 1 asks for approval, and the gateway asks no one about a resource read/,
    );
    expect((await reads()).at(-1)).toMatchObject({
      uri: asked,
      outcome: 'refused',
      decision: 'ask',
      rule: 1,
    });
  });

  it('fails closed on a tool call whose subject is unknown: a rule denying resources applies to it', async () => {
    // ev__echo has no subject mapping: rule 0 (every tool, resources) denies, as rules on paths do
    const result = await client.callTool({ name: 'ev__echo', arguments: { message: 'hi' } });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(
      /features stay private; toolgate cannot tell which paths, commands, hosts or resources \\"ev__echo\\" touches/,
    );
  });
});
