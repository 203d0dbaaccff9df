import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config-load.js';
import { Gateway } from './gateway.js';
import { scratch } from './testing-fixtures/gateway.js';
import {
  type OAuthUpstreams,
  clientSecret as secret,
  startOAuthUpstreams,
} from './testing-fixtures/oauth-upstream.js';

/** An HTTP server that answers every request with `status` and a line of text. */
async function answering(status: number): Promise<{ url: string; server: Server }> {
  const server = createServer((_request, response) => {
    response.writeHead(status, { 'Content-Type': 'text/plain' });
    response.end(`answered ${status}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, server };
}

describe('an HTTP upstream that fails to start: the hint names what is wrong, and only that', {
  timeout: 120_000,
}, () => {
  const place = scratch();
  let oauth: OAuthUpstreams;
  const env = { SECURE_SECRET: secret, WRONG_SECRET: 'not-the-secret-of-gateway-000' };
  const failure = async (path: string) => {
    const started = Gateway.start(await loadConfig(path, env), { log: () => undefined });
    return started.then(
      async (gateway) => {
        await gateway.close();
        throw new Error('the gateway started');
      },
      (error: unknown) => String(error),
    );
  };
  /** A config whose server `secure` is at `url` with no oauth section. */
  const bare = (name: string, url: string) => oauth.writeConfig({ name, upstream: { url } });

  beforeAll(async () => {
    oauth = await startOAuthUpstreams({
      dir: place.dir,
      clients: [{ clientId: 'gateway', secret, scope: 'tools' }],
    });
  }, 60_000);
  afterAll(async () => {
    await oauth?.close();
    place.remove();
  });

  it('tells an upstream that refuses the gateway without credentials (401) to be given them, not that it is no MCP endpoint', async () => {
    const message = await failure(bare('no-credentials', oauth.upstream.url));
    expect(message).toMatch(
      /MCP server "secure" failed during starting it: .*Check servers\.secure in \S+no-credentials\.yaml: http:\/\/127\.0\.0\.1:\d+\/mcp refused the gateway \(HTTP 401\); give the entry the credentials the upstream takes \(oauth, or an Authorization header in headers\)/,
    );
    expect(message).not.toContain('streamable HTTP endpoint');
  });

  it('tells an upstream that refuses the access token oauth got it (401) to check the scope and resource', async () => {
    const path = oauth.writeConfig({
      name: 'other-resource',
      oauth: `issuer: ${oauth.server.issuer}, client_id: gateway, client_secret_env: SECURE_SECRET, scope: tools, resource: "https://elsewhere.example/mcp"`,
    });
    const message = await failure(path);
    expect(message).toMatch(
      /refused the gateway \(HTTP 401\); check its oauth's scope and resource: the access token is not one the upstream takes/,
    );
    expect(message).not.toContain('streamable HTTP endpoint');
  });

  it('leaves a refusal by the authorization server as it is: its message names the oauth key to check', async () => {
    const path = oauth.writeConfig({
      name: 'wrong-secret',
      oauth: `issuer: ${oauth.server.issuer}, client_id: gateway, client_secret_env: WRONG_SECRET, scope: tools`,
    });
    const message = await failure(path);
    expect(message).toMatch(
      /MCP server "secure" failed during starting it: servers\.secure\.oauth: the token endpoint \S+ refused client "gateway" \(HTTP 401 invalid_client\); check its client_id, the secret in client_secret_env and the scope$/,
    );
    expect(message).not.toContain('streamable HTTP endpoint');
  });

  it.each([
    [403, 'refused the gateway (HTTP 403); give the entry the credentials'],
    [404, "must be an MCP server's streamable HTTP endpoint"],
    [500, "must be an MCP server's streamable HTTP endpoint"],
  ])('answered %i, says: %s', async (status, hint) => {
    const upstream = await answering(status);
    try {
      const message = await failure(bare(`answers-${status}`, upstream.url));
      expect(message).toContain(
        `Check servers.secure in ${place.dir}/answers-${status}.yaml: ${upstream.url} ${hint}`,
      );
    } finally {
      upstream.server.close();
    }
  });
});
