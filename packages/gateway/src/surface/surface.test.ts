import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { readAll } from '@toolgate/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config-load.js';
import { Gateway } from '../gateway.js';
import { type GatewayHttpEndpoint, serveGatewayHttp } from '../serve-http.js';
import {
  connectHttp,
  everythingServer,
  filesystemServer,
  scratch,
  tokens,
} from '../testing-fixtures/gateway.js';

const node = JSON.stringify(process.execPath);
const configText = (workspace: string) => `servers:
  everything: { command: ${node}, args: [${JSON.stringify(everythingServer)}, stdio], prefix: ev }
  files: { command: ${node}, args: [${JSON.stringify(filesystemServer)}, ${JSON.stringify(workspace)}], prefix: fs }
clients:
  desktop:
    token_env: DESKTOP_TOKEN
    tools: ["fs__*"]
    prompts: ["ev__simple-prompt", "ev__args-*"]
    resources: ["ev:demo://resource/static/document/a*"]
  agent: { token_env: AGENT_TOKEN, tools: ["ev__echo"] }
ledger: ./surface.ledger.jsonl
`;

describe('the gateway serves prompts and resources behind each client grant', { timeout: 180_000 }, () => {
  const place = scratch();
  let gateway: Gateway;
  let endpoint: GatewayHttpEndpoint;
  const clients: Client[] = [];
  const connect = async (token: string) => {
    const client = new Client({ name: 'surface-test', version: '1.0.0' });
    clients.push(client);
    await connectHttp(client, endpoint.url, token);
    return client;
  };
  const records = async (kind: string) =>
    (await readAll(gateway.store.read()))
      .filter((event) => event.kind === kind)
      .map((event) => event.payload);

  beforeAll(async () => {
    const path = join(place.dir, 'gateway.yaml');
    writeFileSync(path, configText(place.workspace));
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

  it('lists and gets a granted prompt, refuses an ungranted one naming the config entry, and records both', async () => {
    const [desktop, agent] = await Promise.all([connect(tokens.desktop), connect(tokens.agent)]);
    const names = (await desktop.listPrompts()).prompts.map((prompt) => prompt.name);
    expect(names).toContain('ev__simple-prompt');
    expect(names).toContain('ev__args-prompt');
    expect(names.every((name) => name === 'ev__simple-prompt' || name.startsWith('ev__args-'))).toBe(true);
    expect((await agent.listPrompts()).prompts).toEqual([]);

    const got = await desktop.getPrompt({ name: 'ev__simple-prompt' });
    expect(got.messages[0]?.content).toEqual({
      type: 'text',
      text: 'This is a simple prompt without arguments.',
    });

    const refused = agent.getPrompt({ name: 'ev__simple-prompt' });
    await expect(refused).rejects.toThrow(
      /^MCP error -32602: client "agent" is not granted prompt "ev__simple-prompt" \(clients\.agent\.prompts in .*gateway\.yaml: none\); add a pattern/,
    );
    expect(await records('prompt.got')).toEqual([
      expect.objectContaining({
        client: 'desktop',
        prompt: 'ev__simple-prompt',
        server: 'everything',
        outcome: 'got',
      }),
      expect.objectContaining({ client: 'agent', prompt: 'ev__simple-prompt', outcome: 'refused' }),
    ]);
  });

  it('lists and reads a granted resource by its unchanged URI, refuses one outside the grant, and records both', async () => {
    const [desktop, agent] = await Promise.all([connect(tokens.desktop), connect(tokens.agent)]);
    const uris = (await desktop.listResources()).resources.map((resource) => resource.uri);
    expect(uris).toEqual(['demo://resource/static/document/architecture.md']);
    expect((await agent.listResources()).resources).toEqual([]);
    expect((await desktop.listResourceTemplates()).resourceTemplates.length).toBeGreaterThan(0);
    expect((await agent.listResourceTemplates()).resourceTemplates).toEqual([]);

    const read = await desktop.readResource({ uri: uris[0]! });
    expect(read.contents[0]).toMatchObject({ uri: uris[0] });
    expect((read.contents[0] as { text: string }).text.length).toBeGreaterThan(0);

    const outside = 'demo://resource/static/document/features.md';
    await expect(desktop.readResource({ uri: outside })).rejects.toThrow(
      /client "desktop" is not granted resource "demo:\/\/resource\/static\/document\/features\.md" \(clients\.desktop\.resources in .*: "ev:demo:\/\/resource\/static\/document\/a\*"\)/,
    );
    await expect(agent.readResource({ uri: uris[0]! })).rejects.toThrow(/clients\.agent\.resources/);
    expect(await records('resource.read')).toEqual([
      expect.objectContaining({ client: 'desktop', uri: uris[0], server: 'everything', outcome: 'read' }),
      expect.objectContaining({ client: 'desktop', uri: outside, outcome: 'refused' }),
      expect.objectContaining({ client: 'agent', uri: uris[0], outcome: 'refused' }),
    ]);
  });

  it("passes each tool's annotations, title and output schema on as the upstream lists them", async () => {
    const direct = new Client({ name: 'direct', version: '1.0.0' });
    clients.push(direct);
    await direct.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [filesystemServer, place.workspace],
        stderr: 'ignore',
      }),
    );
    const upstream = (await direct.listTools()).tools;
    const desktop = await connect(tokens.desktop);
    const served = new Map((await desktop.listTools()).tools.map((tool) => [tool.name, tool]));
    const annotated = upstream.filter((tool) => tool.annotations !== undefined);
    expect(annotated.length).toBeGreaterThan(5);
    for (const tool of upstream) {
      const through = served.get(`fs__${tool.name}`);
      expect(through, tool.name).toBeDefined();
      expect(through?.annotations).toEqual(tool.annotations);
      expect(through?.title).toEqual(tool.title);
      expect(through?.outputSchema).toEqual(tool.outputSchema);
    }
    // a refused call of a tool with an output schema is an error result the SDK client accepts
    expect(served.get('fs__read_text_file')?.outputSchema).toBeDefined();
    const refused = await desktop.callTool({
      name: 'fs__read_text_file',
      arguments: { path: '/etc/passwd' },
    });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toBeUndefined();
  });
});
