import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CreateMessageRequestSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
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
  desktop:
    token_env: DESKTOP_TOKEN
    tools: ["ev__trigger-elicitation-request", "ev__trigger-sampling-request"]
    sampling: allow
  agent:
    token_env: AGENT_TOKEN
    tools: ["ev__trigger-elicitation-request", "ev__trigger-sampling-request"]
ledger: ./asking.ledger.jsonl
`;

const textOf = (result: unknown) =>
  ((result as { content?: Array<{ type: string; text?: string }> }).content ?? [])
    .map((block) => block.text ?? '')
    .join('\n');

/** A client that declares elicitation and sampling (or neither) and answers both; it counts what it was asked. */
function askedClient(declares: boolean): { client: Client; asked: string[] } {
  const asked: string[] = [];
  const client = new Client(
    { name: 'asking-test', version: '1.0.0' },
    { capabilities: declares ? { elicitation: {}, sampling: {} } : {} },
  );
  if (declares) {
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.method);
      return { action: 'accept', content: { name: 'Ada Lovelace', check: true } };
    });
    client.setRequestHandler(CreateMessageRequestSchema, (request) => {
      asked.push(request.method);
      return { model: 'test-model', role: 'assistant', content: { type: 'text', text: 'sampled words' } };
    });
  }
  return { client, asked };
}

describe("an upstream's own requests reach the client whose call caused them", { timeout: 180_000 }, () => {
  const place = scratch();
  let gateway: Gateway;
  let endpoint: GatewayHttpEndpoint;
  const clients: Client[] = [];
  const connect = async (token: string, declares: boolean) => {
    const made = askedClient(declares);
    clients.push(made.client);
    await connectHttp(made.client, endpoint.url, token);
    return made;
  };
  const asked = async () =>
    (await readAll(gateway.store.read()))
      .filter((event) => event.kind === 'upstream.asked')
      .map((event) => event.payload as Record<string, unknown>);

  beforeAll(async () => {
    const path = join(place.dir, 'gateway.yaml');
    writeFileSync(path, configText);
    gateway = await Gateway.start(await loadConfig(path), { log: () => undefined });
    endpoint = await serveGatewayHttp(gateway, {
      port: 0,
      env: { DESKTOP_TOKEN: tokens.desktop, AGENT_TOKEN: tokens.agent },
    });
  }, 120_000);
  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await endpoint?.close();
    await gateway?.close();
    place.remove();
  });

  it('passes an elicitation to a client that supports it, and declines it for one that does not, recording both', async () => {
    const supports = await connect(tokens.desktop, true);
    const answered = await supports.client.callTool({
      name: 'ev__trigger-elicitation-request',
      arguments: {},
    });
    expect(supports.asked).toEqual(['elicitation/create']);
    expect(textOf(answered)).toContain('Ada Lovelace');

    const lacks = await connect(tokens.agent, false);
    const declined = await lacks.client.callTool({ name: 'ev__trigger-elicitation-request', arguments: {} });
    expect(textOf(declined)).toContain('declined');
    const elicitations = (await asked()).filter((record) => record.method === 'elicitation/create');
    expect(elicitations).toEqual([
      expect.objectContaining({
        client: 'desktop',
        server: 'everything',
        method: 'elicitation/create',
        outcome: 'answered',
        action: 'accept',
      }),
      expect.objectContaining({
        client: 'agent',
        method: 'elicitation/create',
        outcome: 'declined',
        reason: 'client "agent" did not declare the MCP elicitation capability',
      }),
    ]);
  });

  it('passes sampling to a client allowed it, and declines it where the config says deny, naming the entry', async () => {
    const allowed = await connect(tokens.desktop, true);
    const sampled = await allowed.client.callTool({
      name: 'ev__trigger-sampling-request',
      arguments: { prompt: 'hello', maxTokens: 10 },
    });
    expect(allowed.asked).toEqual(['sampling/createMessage']);
    expect(textOf(sampled)).toContain('sampled words');

    const denied = await connect(tokens.agent, true);
    const refused = await denied.client.callTool({
      name: 'ev__trigger-sampling-request',
      arguments: { prompt: 'hello', maxTokens: 10 },
    });
    expect(denied.asked).toEqual([]);
    expect(refused.isError).toBe(true);
    const records = (await asked()).filter((record) => record.method === 'sampling/createMessage');
    expect(records).toEqual([
      expect.objectContaining({ client: 'desktop', outcome: 'answered' }),
      expect.objectContaining({
        client: 'agent',
        outcome: 'declined',
        reason: expect.stringMatching(/^clients\.agent\.sampling is deny in .*gateway\.yaml/),
      }),
    ]);
  });
});
