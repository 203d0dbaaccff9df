import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config-load.js';
import { scratch } from '../testing-fixtures/gateway.js';
import { AccessTokenVerifier } from './access-token.js';
import { oauthSettings } from './oauth-schema.js';

const place = scratch();
afterAll(() => place.remove());

const write = (name: string, text: string) => {
  const path = join(place.dir, name);
  writeFileSync(path, text);
  return path;
};

describe('the oauth: section and a client match:', () => {
  it('reads an issuer, the resource, scopes and clients matched by claims', async () => {
    const config = await loadConfig(
      write(
        'team.yaml',
        `servers:
  mine: { command: node, prefix: mine }
oauth: { issuer: "https://idp.example.com", resource: "https://gateway.example.com/mcp", scopes: [mcp] }
clients:
  ops: { match: { groups: [ops], scopes: [mcp] }, tools: ["mine__*"], rate_limit: { calls_per_second: 5, concurrent_calls: 2 } }
ledger: ./team.jsonl
`,
      ),
      {},
    );
    expect(config.oauth).toEqual({
      issuer: 'https://idp.example.com',
      resource: 'https://gateway.example.com/mcp',
      scopes: ['mcp'],
      clockSkewSeconds: 30,
      groupsClaim: 'groups',
    });
    expect(config.clients.get('ops')).toMatchObject({
      match: { groups: ['ops'], scopes: ['mcp'] },
      rateLimit: { callsPerSecond: 5, concurrentCalls: 2 },
    });
  });

  it('refuses a match: without an oauth: section, naming the line and the fix', async () => {
    const path = write(
      'no-oauth.yaml',
      `servers:
  mine: { command: node, prefix: mine }
clients:
  ops:
    match: { groups: [ops] }
    tools: ["mine__*"]
ledger: ./team.jsonl
`,
    );
    await expect(loadConfig(path, {})).rejects.toThrow(
      /no-oauth\.yaml:5: clients\.ops\.match: there is no oauth: section, so no access token is taken; add oauth: with the issuer/,
    );
  });

  it('refuses an empty match: and an issuer that is no URL, naming the keys', async () => {
    const path = write(
      'bad.yaml',
      `servers:
  mine: { command: node, prefix: mine }
oauth: { issuer: idp }
clients:
  ops: { match: {}, tools: ["mine__*"], rate_limit: { burst: 3 } }
ledger: ./team.jsonl
`,
    );
    const failure = loadConfig(path, {});
    await expect(failure).rejects.toThrow(
      /bad\.yaml:3: oauth\.issuer: must be the authorization server issuer URL/,
    );
    await expect(failure).rejects.toThrow(
      /clients\.ops\.match: name at least one of sub, client_id, groups, scopes/,
    );
    await expect(failure).rejects.toThrow(
      /clients\.ops\.rate_limit: give calls_per_second, concurrent_calls or both/,
    );
  });
});

describe('AccessTokenVerifier', () => {
  it("refuses every token (503, never open) while the issuer's keys cannot be fetched, and names the issuer", async () => {
    const dead = createServer((_request, response) => {
      response.writeHead(500);
      response.end();
    });
    await new Promise<void>((resolve) => dead.listen(0, '127.0.0.1', resolve));
    const issuer = `http://127.0.0.1:${(dead.address() as { port: number }).port}`;
    try {
      const verifier = new AccessTokenVerifier(oauthSettings({ issuer }), 'http://127.0.0.1:1/mcp');
      const check = await verifier.verify('eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln');
      expect(check).toMatchObject({ ok: false, status: 503, error: 'temporarily_unavailable' });
      expect(!check.ok && check.description).toContain(`the keys of ${issuer} could not be fetched`);
    } finally {
      dead.close();
    }
  });
});
