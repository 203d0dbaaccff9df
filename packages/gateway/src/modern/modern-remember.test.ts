import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config-load.js';
import { Gateway } from '../gateway.js';
import { type GatewayHttpEndpoint, serveGatewayHttp } from '../serve-http.js';
import { answersFor, configText, scratch, textOf, tokens } from '../testing-fixtures/gateway.js';

const env = {
  DESKTOP_TOKEN: tokens.desktop,
  AGENT_TOKEN: tokens.agent,
  TOOLGATE_GATEWAY_STATE_KEY: 'a-state-key-for-the-remembering-test-0123456789',
};

/** A 2.x client negotiating the era, whose user answers every ask `remember`; what it was offered is kept. */
async function modernClient(url: string, token: string, remember: string) {
  const asked: string[] = [];
  const client = new Client(
    { name: 'modern-remember', version: '1' },
    { capabilities: { elicitation: {} }, versionNegotiation: { mode: 'auto' } },
  );
  client.setRequestHandler('elicitation/create', (request) => {
    const schema = ('requestedSchema' in request.params ? request.params.requestedSchema : {}) as {
      properties?: Record<string, { enum?: string[] }>;
    };
    asked.push(`${request.params.message} | remember: ${schema?.properties?.remember?.enum?.join('/')}`);
    return { action: 'accept', content: { approve: true, remember } };
  });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return { client, asked };
}

describe('a 2026-07-28 client answers "for this session"', { timeout: 180_000 }, () => {
  const place = scratch();
  const ledger = join(place.dir, 'modern-remember.ledger.jsonl');
  let gateway: Gateway;
  let endpoint: GatewayHttpEndpoint;
  const clients: Client[] = [];
  beforeAll(async () => {
    writeFileSync(join(place.workspace, 'other.txt'), 'another file\n');
    const path = join(place.dir, 'gateway.yaml');
    writeFileSync(
      path,
      configText(place.workspace)
        .replace('./gateway.ledger.jsonl', ledger)
        .replace('tools: ["ev__get-sum"]', 'tools: ["ev__get-sum", "fs__read_text_file"]')
        .replace(
          '{ tools: ["ev__echo"], decision: ask, reason: echo needs a human }',
          '{ tools: ["fs__read_text_file"], decision: ask, reason: reads need a human }',
        ),
    );
    gateway = await Gateway.start(await loadConfig(path, env), { log: () => undefined });
    endpoint = await serveGatewayHttp(gateway, { env, port: 0 });
  }, 120_000);
  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await endpoint?.close();
    await gateway?.close();
    place.remove();
  });
  const open = async (token: string, remember: string) => {
    const opened = await modernClient(endpoint.url, token, remember);
    clients.push(opened.client);
    const read = async (file: string) =>
      textOf(
        await opened.client.callTool({
          name: 'fs__read_text_file',
          arguments: { path: join(place.workspace, file) },
        }),
      );
    return { ...opened, read };
  };

  it('is offered once or session; a session answer is not asked again for the same subject, but for another subject or client', async () => {
    const desktop = await open(tokens.desktop, 'session');
    expect(await desktop.read('hello.txt')).toContain('hello from the workspace');
    expect(desktop.asked).toHaveLength(1);
    expect(desktop.asked[0]).toContain('remember: once/session');
    expect(desktop.asked[0]).not.toContain('always'); // no policy layer remembers here
    expect(await desktop.read('hello.txt')).toContain('hello from the workspace');
    expect(desktop.asked).toHaveLength(1);
    // another subject is asked about
    expect(await desktop.read('other.txt')).toContain('another file');
    expect(desktop.asked).toHaveLength(2);

    const answers = answersFor(ledger, 'fs__read_text_file', 'hello.txt');
    // the first round (asked, not run), the retry's answer, then the answer remembered
    expect(answers).toHaveLength(3);
    expect(answers[0]).toMatchObject({ approved: false });
    expect(answers[1]).toMatchObject({ from: 'approver', approved: true, scope: 'session' });
    expect(String(answers[1]!.by)).toContain('client "desktop"');
    expect(answers[2]).toMatchObject({ from: 'approver', approved: true, scope: 'session' });
    expect(answers[2]!.reason).toMatch(/^remembered for this session/);

    // another client is asked again; its "once" answers stay the caller's, with no scope
    const agent = await open(tokens.agent, 'once');
    expect(await agent.read('hello.txt')).toContain('hello from the workspace');
    expect(await agent.read('hello.txt')).toContain('hello from the workspace');
    expect(agent.asked).toHaveLength(2);
    const agents = answersFor(ledger, 'fs__read_text_file', 'hello.txt').slice(3);
    expect(agents.filter((answer) => answer.approved === true)).toEqual([
      expect.objectContaining({ from: 'caller' }),
      expect.objectContaining({ from: 'caller' }),
    ]);
    expect(agents.some((answer) => 'scope' in answer)).toBe(false);
  });

  it('is offered always where a layer remembers: written to it, recorded with its scope, not asked again', async () => {
    writeFileSync(join(place.workspace, 'kept.txt'), 'kept for always\n');
    writeFileSync(join(place.dir, 'user.yaml'), 'default: ask\nrules: []\n');
    const layered = join(place.dir, 'layered.yaml');
    const text = readFileSync(join(place.dir, 'gateway.yaml'), 'utf8');
    writeFileSync(
      layered,
      text.replace(
        /^policy:\n(?: {2}.*\n)+/m,
        `policy:
  - layer: managed
    rules:
      - { tools: ["fs__*"], paths: ["**/secret/**"], decision: deny, reason: secrets stay put }
      - { tools: ["ev__*", "mine__*", "fs__list_directory"], decision: allow }
  - { layer: user, file: ./user.yaml, remember: true }
`,
      ),
    );
    await gateway.reload(await loadConfig(layered, env));
    const desktop = await open(tokens.desktop, 'always');
    expect(await desktop.read('kept.txt')).toContain('kept for always');
    expect(desktop.asked).toHaveLength(1);
    expect(desktop.asked[0]).toContain('remember: once/session/always');
    expect(readFileSync(join(place.dir, 'user.yaml'), 'utf8')).toContain('paths: [kept.txt]');
    expect(await desktop.read('kept.txt')).toContain('kept for always');
    expect(desktop.asked).toHaveLength(1); // judged by the rule written
    const answers = answersFor(ledger, 'fs__read_text_file', 'kept.txt');
    expect(answers[1]).toMatchObject({ from: 'approver', approved: true, scope: 'always' });
    expect(String(answers[1]!.reason)).toContain('always: remembered in');
  });
});
