import { generateKeyPairSync } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config-load.js';
import {
  startAuthorizationServer,
  type TestAuthorizationServer,
} from '../testing-fixtures/authorization-server.mjs';
import { scratch } from '../testing-fixtures/gateway.js';
import type { GuardedUpstream, PublishedMetadata } from '../testing-fixtures/guarded-upstream.js';
import {
  type OAuthUpstreams,
  clientSecret as secret,
  startOAuthUpstreams,
} from '../testing-fixtures/oauth-upstream.js';

const keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });

describe("an upstream's oauth: with neither issuer nor token_endpoint: the gateway finds the authorization server from the upstream's 401, and refuses what does not match", {
  timeout: 180_000,
}, () => {
  const place = scratch();
  let oauth: OAuthUpstreams;
  let server: TestAuthorizationServer;
  const env = { SECURE_SECRET: secret };
  const upstreamWith = (metadata: PublishedMetadata = {}) => oauth.startUpstream({ metadata });
  const configFor = (name: string, upstream: GuardedUpstream, settings: string) =>
    oauth.writeConfig({ name, upstream, oauth: `${settings}, scope: tools` });
  const start = (path: string, logged: string[] = []) => oauth.startGateway(path, env, logged);

  beforeAll(async () => {
    const jwk = { ...keys.publicKey.export({ format: 'jwk' }), alg: 'ES256', use: 'sig' };
    oauth = await startOAuthUpstreams({
      dir: place.dir,
      clients: [
        { clientId: 'gateway', secret, scope: 'tools' },
        { clientId: 'signer', secret: 'unused-0123456789', scope: 'tools', jwk },
      ],
      metadata: {},
    });
    server = oauth.server;
    writeFileSync(
      join(place.dir, 'signer.pem'),
      keys.privateKey.export({ format: 'pem', type: 'pkcs8' }) as string,
      { mode: 0o600 },
    );
  }, 60_000);
  afterAll(async () => {
    await oauth?.close();
    place.remove();
  });

  it('reads the metadata the 401 names, gets a token for the upstream from the issuer it names, and calls with it', async () => {
    const upstream = oauth.upstream;
    const logged: string[] = [];
    const gateway = await start(
      configFor('found', upstream, 'client_id: gateway, client_secret_env: SECURE_SECRET'),
      logged,
    );
    const result = await gateway.callTool({ client: 'desktop', tool: 'sec__whoami', parameters: {} });
    expect(result).toMatchObject({ isError: false, content: [{ type: 'text', text: 'gateway' }] });
    // the upstream checks each token's audience is its own URL: the resource was asked for
    expect(upstream.reads.metadata).toBe(1);
    expect(upstream.accepted.length).toBeGreaterThan(0);
    expect(server.requests.basic).toBe(server.requests.token);
    const shown = [readFileSync(join(place.dir, 'found.jsonl'), 'utf8'), logged.join('\n')].join('\n');
    for (const token of upstream.accepted) expect(shown).not.toContain(token.split('.')[2]);
    expect(shown).not.toContain(secret);
  });

  it('finds the metadata at the well-known place when the 401 names none', async () => {
    const upstream = await upstreamWith({ challenge: false });
    const gateway = await start(
      configFor('well-known', upstream, 'client_id: gateway, client_secret_env: SECURE_SECRET'),
    );
    const result = await gateway.callTool({ client: 'desktop', tool: 'sec__whoami', parameters: {} });
    expect(result).toMatchObject({ isError: false, content: [{ type: 'text', text: 'gateway' }] });
    expect(upstream.reads.metadata).toBe(1);
  });

  it('sends the secret in the body to an authorization server that takes only client_secret_post', async () => {
    const postOnly = await startAuthorizationServer({
      clients: [{ clientId: 'poster', secret, scope: 'tools' }],
      secretInBody: true,
    });
    try {
      const upstream = await oauth.startUpstream({ metadata: {}, issuer: postOnly.issuer });
      const gateway = await start(
        configFor('post', upstream, 'client_id: poster, client_secret_env: SECURE_SECRET'),
      );
      const result = await gateway.callTool({ client: 'desktop', tool: 'sec__whoami', parameters: {} });
      expect(result).toMatchObject({ isError: false, content: [{ type: 'text', text: 'poster' }] });
      expect(postOnly.requests).toEqual({ token: 1, basic: 0 });
    } finally {
      await postOnly.close();
    }
  });

  it('authenticates by a JWT signed with the key of client_assertion_key_file (private_key_jwt)', async () => {
    const upstream = await upstreamWith();
    const gateway = await start(
      configFor('signed', upstream, 'client_id: signer, client_assertion_key_file: ./signer.pem'),
    );
    const result = await gateway.callTool({ client: 'desktop', tool: 'sec__whoami', parameters: {} });
    expect(result).toMatchObject({ isError: false, content: [{ type: 'text', text: 'signer' }] });
  });

  it('refuses metadata for another resource, asking no token', async () => {
    const upstream = await upstreamWith({ resource: 'https://elsewhere.example/mcp' });
    const issued = server.requests.token;
    const failure = start(
      configFor('elsewhere', upstream, 'client_id: gateway, client_secret_env: SECURE_SECRET'),
    );
    await expect(failure).rejects.toThrow(
      /servers\.secure\.oauth: the protected resource metadata \S+ is for the resource "https:\/\/elsewhere\.example\/mcp", not http:\/\/127\.0\.0\.1:\d+\/mcp \(the upstream's url, or servers\.secure\.oauth\.resource\)/,
    );
    await expect(failure).rejects.not.toThrow(secret);
    expect(server.requests.token).toBe(issued);
  });

  it('refuses an authorization server whose metadata names another issuer than the one it was fetched for', async () => {
    // the same oidc-provider, named as localhost: its metadata says its issuer is 127.0.0.1
    const elsewhere = server.issuer.replace('127.0.0.1', 'localhost');
    const upstream = await upstreamWith({ authorizationServers: [elsewhere] });
    const issued = server.requests.token;
    await expect(
      start(configFor('spoofed', upstream, 'client_id: gateway, client_secret_env: SECURE_SECRET')),
    ).rejects.toThrow(
      /servers\.secure\.oauth: the authorization server that \S+ names: no usable metadata of http:\/\/localhost:\d+ \(\S+: its issuer is "http:\/\/127\.0\.0\.1:\d+", not "http:\/\/localhost:\d+"/,
    );
    expect(server.requests.token).toBe(issued);
  });

  it('refuses an authorization server that is neither https nor on loopback', async () => {
    const upstream = await upstreamWith({ authorizationServers: ['http://idp.example'] });
    await expect(
      start(configFor('plain', upstream, 'client_id: gateway, client_secret_env: SECURE_SECRET')),
    ).rejects.toThrow(
      /servers\.secure\.oauth: the authorization server http:\/\/idp\.example that \S+ names is not an https URL \(nor http on loopback\); set issuer or token_endpoint/,
    );
  });

  it('refuses a config with both issuer and token_endpoint, or both a secret and a key', async () => {
    const upstream = await upstreamWith();
    await expect(
      loadConfig(
        configFor(
          'both',
          upstream,
          `issuer: ${server.issuer}, token_endpoint: ${server.issuer}/token, client_id: gateway, client_secret_env: SECURE_SECRET`,
        ),
        env,
      ),
    ).rejects.toThrow(
      /give one of "issuer" \(its metadata names the token endpoint\) or "token_endpoint", not both/,
    );
    await expect(
      loadConfig(
        configFor(
          'two-credentials',
          upstream,
          'client_id: gateway, client_secret_env: SECURE_SECRET, client_assertion_key_file: ./signer.pem',
        ),
        env,
      ),
    ).rejects.toThrow(
      /servers\.secure\.oauth\.client_assertion_key_file: give one of "client_secret_env" or "client_assertion_key_file", not both/,
    );
    await expect(
      loadConfig(
        configFor('no-key', upstream, 'client_id: signer, client_assertion_key_file: ./absent.pem'),
        env,
      ),
    ).rejects.toThrow(/servers\.secure\.oauth\.client_assertion_key_file: cannot read \S+absent\.pem/);
  });
});
