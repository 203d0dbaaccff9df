import { readFileSync, statSync, writeFileSync } from 'node:fs';
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

describe('an upstream behind OAuth with a stored refresh token: renewed, rotated, kept, never shown', {
  timeout: 180_000,
}, () => {
  const place = scratch();
  const ledger = join(place.dir, 'refresh.ledger.jsonl');
  const tokenFile = join(place.dir, 'upstream.refresh');
  let oauth: OAuthUpstreams;
  let server: TestAuthorizationServer;
  let upstream: GuardedUpstream;
  const logged: string[] = [];
  const shown: string[] = [];
  // every refresh token this run saw: none may be shown
  const refreshTokens: string[] = [];
  const configFor = (grant: string, extra = '') =>
    oauth.writeConfig({
      name: `config-${refreshTokens.length}-${shown.length}`,
      oauth: `issuer: ${server.issuer}, client_id: gateway, client_secret_env: SECURE_SECRET, scope: tools, ${grant}`,
      ledger,
      extra,
    });
  const whoami = (gateway: Gateway) =>
    gateway.callTool({ client: 'desktop', tool: 'sec__whoami', parameters: {} });
  /** Calls until the upstream accepts a token other than the one it last accepted (a renewal). */
  const renewed = async (gateway: Gateway) => {
    const held = upstream.accepted.at(-1);
    await vi.waitUntil(
      async () => {
        const again = await whoami(gateway);
        expect(again.isError).toBe(false);
        return upstream.accepted.at(-1) !== held;
      },
      { timeout: 30_000, interval: 500 },
    );
  };
  const record = (gateway: Gateway) =>
    shown.push(
      logged.join('\n'),
      gateway.metrics.render({ sessions: new Map(), upstreams: gateway.resolver.upstreams() }),
    );

  beforeAll(async () => {
    // access tokens live 31 s: past the gateway's 30 s margin, each is renewed about a second after it is got
    oauth = await startOAuthUpstreams({
      dir: place.dir,
      clients: [{ clientId: 'gateway', secret, scope: 'tools', ttlSeconds: 31, refreshTokens: true }],
    });
    ({ server, upstream } = oauth);
  }, 60_000);
  afterAll(async () => {
    await oauth?.close();
    place.remove();
  });

  it('renews with refresh_token from a variable, sends the rotated one next, and the first is then refused', async () => {
    const first = await server.refreshToken('gateway', { resource: upstream.url, accountId: 'alice' });
    refreshTokens.push(first);
    const env = { SECURE_SECRET: secret, UPSTREAM_REFRESH: first };
    const gateway = await Gateway.start(
      await loadConfig(configFor(`refresh_token: "\${UPSTREAM_REFRESH}"`), env),
      {
        log: (line) => logged.push(line),
      },
    );
    try {
      expect(await whoami(gateway)).toMatchObject({
        isError: false,
        content: [{ type: 'text', text: 'alice' }],
      });
      const issued = server.requests.token;
      // two renewals: each refresh rotates the token, so the second only works with the rotated one
      await renewed(gateway);
      await renewed(gateway);
      expect(server.requests.token).toBeGreaterThanOrEqual(issued + 2);
      // and on a 401 it renews too
      upstream.revoke(upstream.accepted.at(-1)!);
      const held = upstream.accepted.at(-1);
      expect(await whoami(gateway)).toMatchObject({ isError: false, content: [{ text: 'alice' }] });
      expect(upstream.accepted.at(-1)).not.toBe(held);
      record(gateway);
    } finally {
      await gateway.close();
    }
    // the first token was rotated away: the provider refuses it now
    expect(await server.refresh('gateway', first, upstream.url)).toEqual({
      status: 400,
      error: 'invalid_grant',
    });
  });

  it('reads refresh_token_file and writes each rotated token back to it (mode 0600)', async () => {
    const first = await server.refreshToken('gateway', { resource: upstream.url, accountId: 'bob' });
    refreshTokens.push(first);
    writeFileSync(tokenFile, `${first}\n`, { mode: 0o600 });
    const gateway = await Gateway.start(
      await loadConfig(configFor(`refresh_token_file: ${JSON.stringify(tokenFile)}`), {
        SECURE_SECRET: secret,
      }),
      { log: (line) => logged.push(line) },
    );
    let kept: string;
    try {
      expect(await whoami(gateway)).toMatchObject({ isError: false, content: [{ text: 'bob' }] });
      const rotated = readFileSync(tokenFile, 'utf8').trim();
      expect(rotated).not.toBe(first);
      refreshTokens.push(rotated);
      await renewed(gateway);
      kept = readFileSync(tokenFile, 'utf8').trim();
      expect(kept).not.toBe(rotated);
      refreshTokens.push(kept);
      expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
      record(gateway);
    } finally {
      await gateway.close();
    }
    // the file holds the live token; the one it first held is refused
    expect((await server.refresh('gateway', kept, upstream.url)).status).toBe(200);
    expect(await server.refresh('gateway', first, upstream.url)).toEqual({
      status: 400,
      error: 'invalid_grant',
    });
  });

  it('fails to start on a refused refresh token, naming the key and the refusal, not the token', async () => {
    const used = refreshTokens[0]!;
    const failure = Gateway.start(
      await loadConfig(configFor(`refresh_token: "\${UPSTREAM_REFRESH}"`), {
        SECURE_SECRET: secret,
        UPSTREAM_REFRESH: used,
      }),
      { log: () => undefined },
    );
    await expect(failure).rejects.toThrow(
      /servers\.secure\.oauth: the token endpoint \S+ refused client "gateway" \(HTTP 400 invalid_grant\); the refresh token may be expired, revoked or already used/,
    );
    const message = await failure.then(
      () => '',
      (error: unknown) => String(error),
    );
    shown.push(message);
  });

  it('never shows an access or refresh token: not in the ledger, the log, /metrics or an error', () => {
    const all = [readFileSync(ledger, 'utf8'), ...shown].join('\n');
    expect(upstream.accepted.length).toBeGreaterThan(4);
    for (const token of upstream.accepted) expect(all).not.toContain(token.split('.')[2]);
    expect(refreshTokens.length).toBe(4);
    for (const token of refreshTokens) expect(all).not.toContain(token);
    expect(all).not.toContain(secret);
  });

  it('refuses at load both refresh keys, neither grant, an empty or missing file, and a fleet', async () => {
    const env = { SECURE_SECRET: secret, R: 'some-refresh-token' };
    await expect(
      loadConfig(configFor(`refresh_token: x, refresh_token_file: ${JSON.stringify(tokenFile)}`), env),
    ).rejects.toThrow(
      /servers\.secure\.oauth\.refresh_token_file: give one of "refresh_token" or "refresh_token_file", not both/,
    );
    const noGrant = configFor('refresh_token: x');
    writeFileSync(
      noGrant,
      readFileSync(noGrant, 'utf8')
        .replace('client_secret_env: SECURE_SECRET, ', '')
        .replace(', refresh_token: x', ''),
    );
    await expect(loadConfig(noGrant, env)).rejects.toThrow(
      /servers\.secure\.oauth\.client_secret_env: give "client_secret_env" or "client_assertion_key_file" \(client credentials\) or a refresh token/,
    );
    await expect(loadConfig(configFor(`refresh_token: "\${UNSET_REFRESH}"`), env)).rejects.toThrow(
      /servers\.secure\.oauth\.refresh_token: the environment variable UNSET_REFRESH is not set/,
    );
    const empty = join(place.dir, 'empty.refresh');
    writeFileSync(empty, '\n');
    await expect(loadConfig(configFor(`refresh_token_file: ${JSON.stringify(empty)}`), env)).rejects.toThrow(
      /servers\.secure\.oauth\.refresh_token_file: the refresh token file \S+ is empty/,
    );
    await expect(loadConfig(configFor('refresh_token_file: missing.refresh'), env)).rejects.toThrow(
      /servers\.secure\.oauth\.refresh_token_file: the refresh token file \S+missing\.refresh could not be read/,
    );
    await expect(
      loadConfig(
        configFor(`refresh_token: "\${R}"`, 'fleet: { database: "postgres://127.0.0.1:9/none" }\n'),
        env,
      ),
    ).rejects.toThrow(
      /servers\.secure\.oauth\.refresh_token: a refresh token cannot serve a fleet .*use client credentials for a fleet/,
    );
  });
});
