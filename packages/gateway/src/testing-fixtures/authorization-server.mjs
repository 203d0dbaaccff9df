// A real OAuth 2.1 / OpenID authorization server (oidc-provider) on loopback, in the test's process:
// confidential clients (client_secret_basic, or private_key_jwt with a client's public key) with the client_credentials grant (and, asked for, the refresh_token grant,
// every refresh token rotated on use), JWT access tokens (RFC 9068) whose
// audience is the resource the client asked for (RFC 8707), a `groups` claim per client, and a
// signing key made for this run.
import { createServer } from 'node:http';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';

/** @param {{ clients: Array<{ clientId: string, secret: string, jwk?: object, scope: string, groups?: string[], ttlSeconds?: number, refreshTokens?: boolean }>, secretInBody?: boolean }} options */
export async function startAuthorizationServer(options) {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: 'test-signing-key', alg: 'RS256', use: 'sig' };
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${server.address().port}`;
  const byId = new Map(options.clients.map((client) => [client.clientId, client]));
  const provider = new Provider(issuer, {
    jwks: { keys: [jwk] },
    clients: options.clients.map((client) => ({
      client_id: client.clientId,
      ...(client.jwk === undefined
        ? {
            client_secret: client.secret,
            ...(options.secretInBody ? { token_endpoint_auth_method: 'client_secret_post' } : {}),
          }
        : { token_endpoint_auth_method: 'private_key_jwt', jwks: { keys: [client.jwk] } }),
      grant_types: client.refreshTokens ? ['client_credentials', 'refresh_token'] : ['client_credentials'],
      redirect_uris: [],
      response_types: [],
      scope: client.scope,
    })),
    scopes: ['tools', 'other', 'offline_access'],
    ...(options.secretInBody ? { clientAuthMethods: ['client_secret_post', 'private_key_jwt'] } : {}),
    rotateRefreshToken: true,
    features: {
      clientCredentials: { enabled: true },
      devInteractions: { enabled: false },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => undefined,
        useGrantedResource: () => true,
        getResourceServerInfo: (_context, resource, client) => ({
          scope: 'tools other',
          audience: resource,
          accessTokenFormat: 'jwt',
          accessTokenTTL: byId.get(client.clientId)?.ttlSeconds ?? 300,
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
    extraTokenClaims: (_context, token) => {
      const groups = byId.get(token.clientId)?.groups;
      return groups === undefined ? undefined : { groups };
    },
  });
  const requests = { token: 0, basic: 0 };
  server.on('request', (request) => {
    if (request.url === '/token' && request.headers.authorization?.startsWith('Basic ')) requests.basic++;
  });
  server.on('request', provider.callback());
  provider.on('grant.success', () => {
    requests.token++;
  });
  return {
    issuer,
    /** How many tokens it has issued; how many token requests came with HTTP Basic. */
    requests,
    /** A token for `clientId`, asked for `resource` with `scope`, straight from the token endpoint. */
    async token(clientId, { resource, scope = 'tools' }) {
      const client = byId.get(clientId);
      const response = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${clientId}:${client.secret}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ grant_type: 'client_credentials', scope, resource }),
      });
      const body = await response.json();
      if (!response.ok)
        throw new Error(`the token endpoint said ${response.status}: ${JSON.stringify(body)}`);
      return body.access_token;
    },
    /**
     * A refresh token for `clientId` and the account `accountId`, as a user's consent would leave
     * one (a grant of `scope` for `resource`), made through the provider's own models.
     */
    async refreshToken(clientId, { resource, accountId, scope = 'tools' }) {
      const client = await provider.Client.find(clientId);
      const grant = new provider.Grant({ accountId, clientId });
      grant.addResourceScope(resource, scope);
      const grantId = await grant.save();
      return new provider.RefreshToken({
        accountId,
        client,
        grantId,
        scope,
        resource,
        gty: 'authorization_code',
      }).save();
    },
    /** The token endpoint's answer (status and `error`) to a refresh with `refreshToken`. */
    async refresh(clientId, refreshToken, resource) {
      const client = byId.get(clientId);
      const response = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${clientId}:${client.secret}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, resource }),
      });
      const body = await response.json();
      return { status: response.status, error: body.error };
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
