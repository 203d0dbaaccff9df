import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { readAll } from '@toolgate/ledger';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../config-load.js';
import { Gateway } from '../gateway.js';
import { type GatewayHttpEndpoint, serveGatewayHttp } from '../serve-http.js';
import {
  changingServer,
  connectHttp,
  everythingServer,
  scratch,
  tokens,
} from '../testing-fixtures/gateway.js';

const node = JSON.stringify(process.execPath);
const outsiderToken = 'outsider-token-0123456789abcdef';
const configText = `servers:
  everything: { command: ${node}, args: [${JSON.stringify(everythingServer)}, stdio], prefix: ev }
  mine: { command: ${node}, args: [${JSON.stringify(changingServer)}], prefix: mine }
clients:
  desktop:
    token_env: DESKTOP_TOKEN
    tools: ["mine__*", "ev__toggle-simulated-logging", "ev__toggle-subscriber-updates"]
    prompts: ["ev__*"]
    resources: ["ev:demo://resource/**"]
  agent: { token_env: AGENT_TOKEN, tools: ["ev__echo"] }
  outsider: { token_env: OUTSIDER_TOKEN, tools: ["mine__pid"] }
ledger: ./passing-on.ledger.jsonl
`;

/** A client that keeps every notification of the kinds the tests wait for. */
function listeningClient(): { client: Client; heard: { tools: number; logs: unknown[]; updated: string[] } } {
  const client = new Client({ name: 'passing-on-test', version: '1.0.0' });
  const heard = { tools: 0, logs: [] as unknown[], updated: [] as string[] };
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    heard.tools += 1;
  });
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    heard.logs.push(notification.params);
  });
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
    heard.updated.push(notification.params.uri);
  });
  return { client, heard };
}

describe('the gateway passes what upstreams tell on to the clients it concerns', { timeout: 180_000 }, () => {
  const place = scratch();
  let gateway: Gateway;
  let endpoint: GatewayHttpEndpoint;
  const clients: Client[] = [];
  const connect = async (token: string) => {
    const listening = listeningClient();
    clients.push(listening.client);
    await connectHttp(listening.client, endpoint.url, token);
    return listening;
  };

  beforeAll(async () => {
    const path = join(place.dir, 'gateway.yaml');
    writeFileSync(path, configText);
    gateway = await Gateway.start(await loadConfig(path), { log: () => undefined });
    endpoint = await serveGatewayHttp(gateway, {
      port: 0,
      env: { DESKTOP_TOKEN: tokens.desktop, AGENT_TOKEN: tokens.agent, OUTSIDER_TOKEN: outsiderToken },
    });
  }, 120_000);
  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await endpoint?.close();
    await gateway?.close();
    place.remove();
  });

  it('sends tools/list_changed to a client whose view changed upstream, and not to one whose view did not', async () => {
    const [desktop, agent] = await Promise.all([connect(tokens.desktop), connect(tokens.agent)]);
    await Promise.all([desktop.client.listTools(), agent.client.listTools()]);
    const before = (await desktop.client.listTools()).tools.map((tool) => tool.name);
    expect(before).toContain('mine__note');
    await desktop.client.callTool({ name: 'mine__rewrite', arguments: {} });
    await vi.waitFor(() => expect(desktop.heard.tools).toBeGreaterThan(0), {
      timeout: 60_000,
      interval: 100,
    });
    const after = (await desktop.client.listTools()).tools.map((tool) => tool.name);
    expect(after).not.toContain('mine__note'); // withheld until approved: the view the client was told of
    expect(agent.heard.tools).toBe(0);
  });

  it('passes upstream log messages to the client that set a level, none to a client that set none, none to a client granted nothing of that upstream', async () => {
    const [desktop, agent, outsider] = await Promise.all([
      connect(tokens.desktop),
      connect(tokens.agent),
      connect(outsiderToken),
    ]);
    await outsider.client.setLoggingLevel('debug');
    await desktop.client.setLoggingLevel('debug');
    await desktop.client.callTool({ name: 'ev__toggle-simulated-logging', arguments: {} });
    await vi.waitFor(() => expect(desktop.heard.logs.length).toBeGreaterThan(0), {
      timeout: 60_000,
      interval: 100,
    });
    expect(desktop.heard.logs[0]).toMatchObject({ level: expect.any(String), data: expect.any(String) });
    expect(agent.heard.logs).toEqual([]);
    expect(outsider.heard.logs).toEqual([]);
    await desktop.client.callTool({ name: 'ev__toggle-simulated-logging', arguments: {} });
  });

  it('subscribes a client to a granted resource and passes its updates on; an ungranted subscription is refused and recorded', async () => {
    const [desktop, agent] = await Promise.all([connect(tokens.desktop), connect(tokens.agent)]);
    const [resource] = (await desktop.client.listResources()).resources;
    expect(resource).toBeDefined();
    await desktop.client.subscribeResource({ uri: resource!.uri });
    await desktop.client.callTool({ name: 'ev__toggle-subscriber-updates', arguments: {} });
    await vi.waitFor(() => expect(desktop.heard.updated).toContain(resource!.uri), {
      timeout: 60_000,
      interval: 100,
    });
    await expect(agent.client.subscribeResource({ uri: resource!.uri })).rejects.toThrow(
      /clients\.agent\.resources/,
    );
    const records = (await readAll(gateway.store.read()))
      .filter((event) => event.kind === 'resource.subscribed')
      .map((event) => event.payload);
    expect(records).toEqual([
      expect.objectContaining({ client: 'desktop', uri: resource!.uri, outcome: 'subscribed' }),
      expect.objectContaining({ client: 'agent', uri: resource!.uri, outcome: 'refused' }),
    ]);
    expect(agent.heard.updated).toEqual([]);
    await desktop.client.callTool({ name: 'ev__toggle-subscriber-updates', arguments: {} });
  });

  it("completes a granted prompt's argument on its upstream, and refuses an ungranted one", async () => {
    const [desktop, agent] = await Promise.all([connect(tokens.desktop), connect(tokens.agent)]);
    const ref = { type: 'ref/prompt' as const, name: 'ev__completable-prompt' };
    const completed = await desktop.client.complete({ ref, argument: { name: 'department', value: 'S' } });
    expect(completed.completion.values).toEqual(['Sales', 'Support']);
    await expect(
      agent.client.complete({ ref, argument: { name: 'department', value: 'S' } }),
    ).rejects.toThrow(/client "agent" is not granted prompt "ev__completable-prompt"/);
  });
});
