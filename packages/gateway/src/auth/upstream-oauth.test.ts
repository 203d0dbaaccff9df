import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../config-load.js';
import { Gateway } from '../gateway.js';
import type { TestAuthorizationServer } from '../testing-fixtures/authorization-server.mjs';
import { scratch } from '../testing-fixtures/gateway.js';
import type { GuardedUpstream } from '../testing-fixtures/guarded-upstream.js';
import {
  type OAuthUpstreams,
  clientSecret as secret,
  startOAuthUpstreams,
} from '../testing-fixtures/oauth-upstream.js';

describe('an upstream behind OAuth: the gateway obtains, caches and renews its tokens, and shows none', {
  timeout: 180_000,
}, () => {
  const place = scratch();
  const ledger = join(place.dir, 'upstream.ledger.jsonl');
  let oauth: OAuthUpstreams;
  let server: TestAuthorizationServer;
  let upstream: GuardedUpstream;
  let gateway: Gateway | undefined;
  const logged: string[] = [];
  const configFor = (secretEnv: string, ledgerFile = ledger) =>
    oauth.writeConfig({
      name: secretEnv,
      oauth: `issuer: ${server.issuer}, client_id: gateway, client_secret_env: ${secretEnv}, scope: tools`,
      ledger: ledgerFile,
    });
  const env = { SECURE_SECRET: secret, WRONG_SECRET: 'not-the-secret-of-gateway-000' };

  beforeAll(async () => {
    // tokens live 31 s: past the gateway's 30 s margin, each is renewed about a second after it is got
    oauth = await startOAuthUpstreams({
      dir: place.dir,
      clients: [{ clientId: 'gateway', secret, scope: 'tools', ttlSeconds: 31 }],
    });
    ({ server, upstream } = oauth);
  }, 60_000);
  afterAll(async () => {
    await oauth?.close();
    place.remove();
  });

  it('calls the upstream with a token it obtained by client credentials, and renews it before it expires', async () => {
    gateway = await oauth.startGateway(configFor('SECURE_SECRET'), env, logged);
    const first = await gateway.callTool({ client: 'desktop', tool: 'sec__whoami', parameters: {} });
    expect(first).toMatchObject({ isError: false, content: [{ type: 'text', text: 'gateway' }] });
    const issued = server.requests.token;
    const held = upstream.accepted.at(-1)!;
    // within its life the token is reused; past it (31 s less the 30 s margin) a new one is got
    await gateway.callTool({ client: 'desktop', tool: 'sec__whoami', parameters: {} });
    await vi.waitUntil(
      async () => {
        const again = await gateway!.callTool({ client: 'desktop', tool: 'sec__whoami', parameters: {} });
        expect(again.isError).toBe(false);
        return upstream.accepted.at(-1) !== held;
      },
      { timeout: 30_000, interval: 500 },
    );
    expect(server.requests.token).toBeGreaterThan(issued);
  });

  it('gets a new token when the upstream refuses the one it holds, and the call still succeeds', async () => {
    const held = upstream.accepted.at(-1)!;
    upstream.revoke(held);
    const issued = server.requests.token;
    const result = await gateway!.callTool({ client: 'desktop', tool: 'sec__whoami', parameters: {} });
    expect(result.isError).toBe(false);
    expect(server.requests.token).toBe(issued + 1);
    expect(upstream.accepted.at(-1)).not.toBe(held);
  });

  it('never shows a token or the secret: not in the ledger, the log or /metrics', async () => {
    const shown = [
      readFileSync(ledger, 'utf8'),
      logged.join('\n'),
      gateway!.metrics.render({ sessions: new Map(), upstreams: gateway!.resolver.upstreams() }),
    ].join('\n');
    expect(upstream.accepted.length).toBeGreaterThan(2);
    for (const token of upstream.accepted) expect(shown).not.toContain(token.split('.')[2]);
    expect(shown).not.toContain(secret);
  });

  it('fails to start with a wrong secret, naming the servers entry and the refusal, not the secret', async () => {
    const failure = Gateway.start(
      await loadConfig(configFor('WRONG_SECRET', join(place.dir, 'wrong.jsonl')), env),
      { log: () => undefined },
    );
    await expect(failure).rejects.toThrow(
      /servers\.secure\.oauth: the token endpoint \S+ refused client "gateway" \(HTTP 401 invalid_client\)/,
    );
    await expect(failure).rejects.not.toThrow(env.WRONG_SECRET);
  });

  it('refuses a config whose secret variable is not set, naming it', async () => {
    await expect(loadConfig(configFor('UNSET_SECRET'), env)).rejects.toThrow(
      /servers\.secure\.oauth\.client_secret_env: the environment variable UNSET_SECRET is not set/,
    );
  });
});
