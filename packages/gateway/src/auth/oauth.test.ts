import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  Client as ModernClient,
  ClientCredentialsProvider as ModernCredentials,
  StreamableHTTPClientTransport as ModernTransport,
} from '@modelcontextprotocol/client';
import { ClientCredentialsProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../config-load.js';
import { Gateway } from '../gateway.js';
import { replayGatewayLedger } from '../replay.js';
import { type GatewayHttpEndpoint, serveGatewayHttp } from '../serve-http.js';
import {
  startAuthorizationServer,
  type TestAuthorizationServer,
} from '../testing-fixtures/authorization-server.mjs';
import { changingServer, scratch, textOf, tokens } from '../testing-fixtures/gateway.js';

const secret = (name: string) => `${name}-secret-0123456789abcdef`;
const env = { DESKTOP_TOKEN: tokens.desktop };

interface LedgerLine {
  seq: number;
  kind: string;
  actor: string;
  payload: Record<string, unknown>;
}

describe('the gateway as an OAuth 2.1 resource server, against a real authorization server', {
  timeout: 180_000,
}, () => {
  const place = scratch();
  const ledger = join(place.dir, 'oauth.ledger.jsonl');
  let server: TestAuthorizationServer;
  let gateway: Gateway;
  let endpoint: GatewayHttpEndpoint;
  const closers: Array<() => Promise<void>> = [];
  const records = () =>
    readFileSync(ledger, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as LedgerLine);
  const initialize = (token: string | undefined, sessionId?: string) =>
    fetch(endpoint.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
        ...(sessionId === undefined ? {} : { 'mcp-session-id': sessionId }),
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: sessionId === undefined ? 'initialize' : 'tools/list',
        params:
          sessionId === undefined
            ? { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } }
            : {},
      }),
    });

  beforeAll(async () => {
    server = await startAuthorizationServer({
      clients: [
        { clientId: 'ops-bot', secret: secret('ops-bot'), scope: 'tools', groups: ['ops'] },
        { clientId: 'ops-two', secret: secret('ops-two'), scope: 'tools', groups: ['ops'] },
        { clientId: 'reader-bot', secret: secret('reader-bot'), scope: 'tools' },
        {
          clientId: 'short-bot',
          secret: secret('short-bot'),
          scope: 'tools',
          groups: ['ops'],
          ttlSeconds: 1,
        },
        { clientId: 'narrow-bot', secret: secret('narrow-bot'), scope: 'other', groups: ['ops'] },
        { clientId: 'stranger-bot', secret: secret('stranger-bot'), scope: 'tools' },
      ],
    });
    const path = join(place.dir, 'gateway.yaml');
    writeFileSync(
      path,
      `servers:
  mine: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(changingServer)}], prefix: mine }
oauth:
  issuer: ${server.issuer}
  scopes: [tools]
  clock_skew_seconds: 0
clients:
  ops: { match: { groups: [ops] }, tools: ["mine__pid", "mine__note"] }
  readers: { match: { client_id: [reader-bot] }, tools: ["mine__note"] }
  desktop: { token_env: DESKTOP_TOKEN, tools: ["mine__pid"] }
ledger: ${JSON.stringify(ledger)}
`,
    );
    gateway = await Gateway.start(await loadConfig(path, env), { log: () => undefined });
    endpoint = await serveGatewayHttp(gateway, { env, port: 0 });
  }, 120_000);
  afterAll(async () => {
    for (const close of closers) await close().catch(() => undefined);
    await endpoint?.close();
    await gateway?.close();
    await server?.close();
    place.remove();
  });

  it('serves its Protected Resource Metadata at the well-known path and its path-suffixed form', async () => {
    const origin = new URL(endpoint.url).origin;
    for (const path of [
      '/.well-known/oauth-protected-resource/mcp',
      '/.well-known/oauth-protected-resource',
    ]) {
      const response = await fetch(`${origin}${path}`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        resource: endpoint.url,
        authorization_servers: [server.issuer],
        scopes_supported: ['tools'],
        bearer_methods_supported: ['header'],
        resource_name: 'toolgate-gateway',
      });
    }
    const bare = await initialize(undefined);
    expect(bare.status).toBe(401);
    expect(bare.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp", scope="tools"`,
    );
  });

  it('lets a real MCP client discover the authorization server, get a token by client credentials, and be the client its group matches', async () => {
    const client = new Client({ name: 'ops-agent', version: '1' });
    const authProvider = new ClientCredentialsProvider({
      clientId: 'ops-bot',
      clientSecret: secret('ops-bot'),
      // the 1.x SDK asks the token endpoint for the provider's own scope (2.x takes the challenge's)
      scope: 'tools',
      expectedIssuer: server.issuer,
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(endpoint.url), { authProvider }));
    closers.push(() => client.close());
    const listed = await client.listTools();
    expect(listed.tools.map((tool) => tool.name).sort()).toEqual(['mine__note', 'mine__pid']);
    const result = await client.callTool({ name: 'mine__note', arguments: { text: 'from ops' } });
    expect(textOf(result)).toContain('from ops');

    const lines = records();
    const identified = lines.filter((line) => line.kind === 'caller.identified');
    expect(identified.at(-1)?.payload).toMatchObject({
      client: 'ops',
      issuer: server.issuer,
      subject: 'ops-bot',
      clientId: 'ops-bot',
      scopes: expect.arrayContaining(['tools']),
    });
    // the identity is the record just before the call it names, and names it by its id
    const at = lines.indexOf(identified.at(-1)!);
    expect(lines[at + 1]).toMatchObject({
      kind: 'tool.called',
      actor: 'ops',
      payload: { callId: identified.at(-1)!.payload.callId, tool: 'mine__note' },
    });
  });

  it('gives a client matched by client_id only its own grant, over the 2026-07-28 era too, with the same identity recorded', async () => {
    const client = new ModernClient(
      { name: 'reader', version: '1' },
      { versionNegotiation: { mode: 'auto' } },
    );
    const authProvider = new ModernCredentials({
      clientId: 'reader-bot',
      clientSecret: secret('reader-bot'),
      expectedIssuer: server.issuer,
    });
    await client.connect(new ModernTransport(new URL(endpoint.url), { authProvider }));
    closers.push(() => client.close());
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const listed = await client.listTools();
    expect(listed.tools.map((tool) => tool.name)).toEqual(['mine__note']);
    const refused = await client.callTool({ name: 'mine__pid', arguments: {} });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('CAPABILITY_VIOLATION');
    const identified = records()
      .filter((line) => line.kind === 'caller.identified')
      .at(-1);
    expect(identified?.payload).toMatchObject({
      client: 'readers',
      issuer: server.issuer,
      subject: 'reader-bot',
      clientId: 'reader-bot',
    });
  });

  it('refuses a token for another audience, an expired one, a forged one, one without the scope and one no client matches, recording each', async () => {
    const resource = endpoint.url;
    const elsewhere = await server.token('ops-bot', { resource: 'http://127.0.0.1:1/elsewhere' });
    const short = await server.token('short-bot', { resource });
    const good = await server.token('ops-bot', { resource });
    const [header, payload, signature] = good.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8'));
    const forged = [
      header,
      Buffer.from(JSON.stringify({ ...claims, sub: 'root', groups: ['ops', 'admin'] })).toString('base64url'),
      signature,
    ].join('.');
    const narrow = await server.token('narrow-bot', { resource, scope: 'other' });
    const stranger = await server.token('stranger-bot', { resource });
    const expiry = JSON.parse(Buffer.from(short.split('.')[1]!, 'base64url').toString('utf8')).exp as number;
    await vi.waitUntil(() => Date.now() / 1000 > expiry + 1, { timeout: 30_000, interval: 200 });

    const cases = [
      { token: elsewhere, status: 401, error: 'invalid_token', reason: 'another resource' },
      { token: short, status: 401, error: 'invalid_token', reason: 'expired' },
      { token: forged, status: 401, error: 'invalid_token', reason: 'signature does not verify' },
      { token: narrow, status: 403, error: 'insufficient_scope', reason: 'lacks the scope tools' },
      { token: stranger, status: 403, error: undefined, reason: 'matches no client' },
    ];
    const before = records().length;
    for (const { token, status, error, reason } of cases) {
      const response = await initialize(token);
      expect(response.status, reason).toBe(status);
      const challenge = response.headers.get('www-authenticate') ?? '';
      expect(challenge).toContain('resource_metadata=');
      if (error !== undefined) expect(challenge).toContain(`error="${error}"`);
      expect(((await response.json()) as { error: { message: string } }).error.message).toContain(reason);
    }
    const refused = records()
      .slice(before)
      .filter((line) => line.kind === 'access.refused');
    expect(refused.map((line) => [line.payload.status, line.payload.claimedSubject])).toEqual([
      [401, 'ops-bot'],
      [401, 'short-bot'],
      [401, 'root'],
      [403, 'narrow-bot'],
      [403, 'stranger-bot'],
    ]);
    expect(refused.map((line) => line.payload.reason)).toEqual(
      cases.map(({ reason }) => expect.stringContaining(reason)),
    );
    // no token reaches the ledger
    const text = readFileSync(ledger, 'utf8');
    for (const { token } of cases) expect(text).not.toContain(token.split('.')[2]);
  });

  it('keeps a session to the caller that opened it: another subject of the same client gets 404', async () => {
    const resource = endpoint.url;
    const [mine, theirs] = await Promise.all([
      server.token('ops-bot', { resource }),
      server.token('ops-two', { resource }),
    ]);
    const opened = await initialize(mine);
    expect(opened.status).toBe(200);
    const sessionId = opened.headers.get('mcp-session-id')!;
    await opened.body?.cancel();
    const taken = await initialize(theirs, sessionId);
    expect(taken.status).toBe(404);
    await fetch(endpoint.url, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${mine}`, 'mcp-session-id': sessionId },
    });
  });

  it('still takes a static token beside access tokens, and its ledger replays byte for byte', async () => {
    const client = new Client({ name: 'desktop', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(endpoint.url), {
        requestInit: { headers: { authorization: `Bearer ${tokens.desktop}` } },
      }),
    );
    closers.push(() => client.close());
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['mine__pid']);
    const target = join(place.dir, 'replayed.jsonl');
    await replayGatewayLedger(ledger, target);
    expect(readFileSync(target, 'utf8')).toBe(readFileSync(ledger, 'utf8'));
  });
});
