import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config-load.js';
import { Gateway } from '../gateway.js';
import { type GatewayHttpEndpoint, serveGatewayHttp } from '../serve-http.js';
import { connectHttp, everythingServer, scratch, tokens } from '../testing-fixtures/gateway.js';
import { type ModernUpstream, startModernUpstream } from '../testing-fixtures/modern-upstream.js';

const env = { DESKTOP_TOKEN: tokens.desktop, AGENT_TOKEN: tokens.agent };
const node = JSON.stringify(process.execPath);

/** A legacy upstream (server-everything over stdio) and a 2026-07-28-only one, both with prompts and resources. */
const configText = (modernUrl: string, ledger: string) => `servers:
  everything: { command: ${node}, args: [${JSON.stringify(everythingServer)}, stdio], prefix: ev }
  modern: { url: ${JSON.stringify(modernUrl)}, prefix: md }
clients:
  desktop:
    token_env: DESKTOP_TOKEN
    tools: ["ev__echo", "md__shout"]
    prompts: ["ev__simple-prompt", "md__greet"]
    resources: ["ev:demo://resource/static/document/a*", "md:modern://notes/*"]
  agent: { token_env: AGENT_TOKEN, tools: ["md__shout"] }
policy:
  default: allow
  rules:
    - { resources: ["modern://notes/secret"], decision: deny, reason: secrets stay put }
ledger: ${JSON.stringify(ledger)}
`;

async function modernClient(url: string, token: string): Promise<Client> {
  const client = new Client({ name: 'modern', version: '1' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

const names = (items: Array<{ name: string }>) => items.map((item) => item.name).sort();
const uris = (items: Array<{ uri: string }>) => items.map((item) => item.uri).sort();

describe('server/discover: what the gateway offers a 2026-07-28 client is the union of its upstreams of both eras', {
  timeout: 180_000,
}, () => {
  const place = scratch();
  let upstream: ModernUpstream;
  let gateway: Gateway;
  let endpoint: GatewayHttpEndpoint;
  const clients: Array<{ close(): Promise<void> }> = [];
  beforeAll(async () => {
    upstream = await startModernUpstream({ surface: true });
    const path = join(place.dir, 'gateway.yaml');
    writeFileSync(path, configText(upstream.url, join(place.dir, 'gateway.ledger.jsonl')));
    gateway = await Gateway.start(await loadConfig(path, env), { log: () => undefined });
    endpoint = await serveGatewayHttp(gateway, { env, port: 0 });
  }, 120_000);
  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await endpoint?.close();
    await gateway?.close();
    await upstream?.close();
    place.remove();
  });
  const modern = async (token: string) => {
    const client = await modernClient(endpoint.url, token);
    clients.push(client);
    return client;
  };
  const legacy = async (token: string) => {
    const client = new LegacyClient({ name: 'legacy', version: '1' });
    clients.push(client);
    await connectHttp(client, endpoint.url, token);
    return client;
  };

  it('declares tools, prompts, resources and completion for a client granted them, and serves the union as the legacy lists do', async () => {
    const [now, old] = await Promise.all([modern(tokens.desktop), legacy(tokens.desktop)]);
    expect(now.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const capabilities = now.getServerCapabilities();
    expect(capabilities?.tools).toBeDefined();
    expect(capabilities?.prompts).toBeDefined();
    expect(capabilities?.resources).toBeDefined();
    expect(capabilities?.completions).toBeDefined(); // server-everything completes

    const prompts = names((await now.listPrompts()).prompts);
    expect(prompts).toEqual(['ev__simple-prompt', 'md__greet']);
    expect(prompts).toEqual(names((await old.listPrompts()).prompts));
    const tools = names((await now.listTools()).tools);
    expect(tools).toEqual(['ev__echo', 'md__shout']);
    expect(tools).toEqual(names((await old.listTools()).tools));

    const resources = uris((await now.listResources()).resources);
    // granted on both upstreams; the secret note is granted but policy denies its read, so it is not offered
    expect(resources).toContain('modern://notes/today');
    expect(resources).not.toContain('modern://notes/secret');
    expect(resources.some((uri) => uri.startsWith('demo://resource/static/document/a'))).toBe(true);
    expect(resources).toEqual(uris((await old.listResources()).resources));
  });

  it('gets a prompt and reads a resource of each era upstream, and refuses what grant or policy refuses', async () => {
    const now = await modern(tokens.desktop);
    const greeting = await now.getPrompt({ name: 'md__greet', arguments: { name: 'Ada' } });
    expect(JSON.stringify(greeting.messages)).toContain('Hello, Ada');
    const simple = await now.getPrompt({ name: 'ev__simple-prompt' });
    expect(simple.messages.length).toBeGreaterThan(0);
    const note = await now.readResource({ uri: 'modern://notes/today' });
    expect(JSON.stringify(note.contents)).toContain('a modern note');
    await expect(now.readResource({ uri: 'modern://notes/secret' })).rejects.toThrow(/secrets stay put/);
    await expect(now.getPrompt({ name: 'ev__args-prompt', arguments: { city: 'x' } })).rejects.toThrow(
      /clients\.desktop\.prompts/,
    );
  });

  it('declares no prompts or resources to a client granted none (its tools still the union)', async () => {
    const now = await modern(tokens.agent);
    const capabilities = now.getServerCapabilities();
    expect(capabilities?.tools).toBeDefined();
    expect(capabilities?.prompts).toBeUndefined();
    expect(capabilities?.resources).toBeUndefined();
    expect(capabilities?.completions).toBeUndefined();
    expect(names((await now.listTools()).tools)).toEqual(['md__shout']);
    // the upstream of the modern era was asked in its own era only
    expect(new Set(upstream.eras)).toEqual(new Set(['modern']));
  });
});
