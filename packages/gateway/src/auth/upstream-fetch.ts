import { messageOf } from '@toolgate/core';
import { expandVariables } from '../variables.js';
import { type AssertionKey, readAssertionKey } from './client-assertion.js';
import { fileRefreshToken, memoryRefreshToken, type RefreshTokenStore } from './refresh-token-store.js';
import type { UpstreamOAuthSection } from './upstream-oauth-schema.js';
import { UpstreamTokens } from './upstream-tokens.js';

/**
 * The gateway could not get an upstream an access token (its authorization server refused, or could
 * not be found or reached); the message names the `servers.<name>.oauth` key to check. It marks the
 * failure as the gateway's credentials', not the upstream endpoint's.
 */
export class UpstreamTokenError extends Error {
  override readonly name = 'UpstreamTokenError';
}

/**
 * A fetch that sends each request with the upstream's current access token, and on a 401 gets a
 * new token and sends the request once more. Any `Authorization` the request had is replaced.
 * While the upstream's authorization server is yet to be discovered, a request is first sent
 * without a token: its 401 challenge tells where the upstream's metadata is (MCP authorization).
 */
export function tokenFetch(tokens: UpstreamTokens, base: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const replayable = init?.body === undefined || init.body === null || typeof init.body === 'string';
    if (tokens.awaitsChallenge() && replayable) {
      const headers = new Headers(init?.headers);
      headers.delete('authorization');
      const bare = await base(input, { ...init, headers });
      if (bare.status !== 401) return bare;
      await bare.body?.cancel();
      tokens.challenged(bare.headers.get('www-authenticate'));
    }
    const send = async () => {
      const token = await tokens.token().catch((error: unknown) => {
        throw new UpstreamTokenError(messageOf(error), { cause: error });
      });
      const headers = new Headers(init?.headers);
      headers.set('authorization', `Bearer ${token}`);
      return { token, response: await base(input, { ...init, headers }) };
    };
    const first = await send();
    if (first.response.status !== 401 || !replayable) return first.response;
    await first.response.body?.cancel();
    tokens.refused(first.token);
    return (await send()).response;
  };
}

/**
 * The fetch of an HTTP upstream with an `oauth:` section: its secret read from the environment and
 * its refresh token (expanded, or read from its file) now; a problem is thrown as a message naming
 * the key, never the value. A refresh token is refused in a fleet: instances rotating one token
 * would have the authorization server revoke it.
 */
export function upstreamFetch(options: {
  upstream: string;
  url: string;
  section: UpstreamOAuthSection;
  env: NodeJS.ProcessEnv;
  /** A path of the config resolved against the config file's directory. */
  resolvePath: (path: string) => string;
  /** Whether `fleet:` is configured. */
  fleet: boolean;
}): typeof fetch {
  const { upstream, url, section, env } = options;
  const at = `servers.${upstream}.oauth`;
  const expand = (value: string, key: string) =>
    expandVariables(value, env, (message) => new Error(`${at}.${key}: ${message}`));
  let assertionKey: AssertionKey | undefined;
  if (section.client_assertion_key_file !== undefined) {
    const path = options.resolvePath(expand(section.client_assertion_key_file, 'client_assertion_key_file'));
    assertionKey = readAssertionKey(path, `${at}.client_assertion_key_file`);
  }
  let secret: string | undefined;
  if (section.client_secret_env !== undefined) {
    secret = env[section.client_secret_env];
    if (secret === undefined || secret === '') {
      throw new Error(
        `${at}.client_secret_env: the environment variable ${section.client_secret_env} is not set; set it to the client secret of "${section.client_id}"`,
      );
    }
  }
  const refreshKey = section.refresh_token_file === undefined ? 'refresh_token' : 'refresh_token_file';
  let refreshToken: RefreshTokenStore | undefined;
  if (section.refresh_token !== undefined || section.refresh_token_file !== undefined) {
    if (options.fleet) {
      throw new Error(
        `${at}.${refreshKey}: a refresh token cannot serve a fleet (each instance would rotate it and the authorization server would revoke it); use client credentials for a fleet (client_secret_env without a refresh token)`,
      );
    }
    if (section.refresh_token_file !== undefined) {
      const path = options.resolvePath(expand(section.refresh_token_file, 'refresh_token_file'));
      refreshToken = fileRefreshToken(path, `${at}.refresh_token_file`);
    } else {
      const token = expand(section.refresh_token ?? '', 'refresh_token').trim();
      if (token === '') throw new Error(`${at}.refresh_token: is empty; give the upstream's refresh token`);
      refreshToken = memoryRefreshToken(token);
    }
  }
  const tokens = new UpstreamTokens({
    upstream,
    url,
    ...(section.issuer === undefined ? {} : { issuer: section.issuer }),
    ...(section.token_endpoint === undefined ? {} : { tokenEndpoint: section.token_endpoint }),
    clientId: section.client_id,
    ...(secret === undefined ? {} : { clientSecret: secret }),
    ...(assertionKey === undefined ? {} : { assertionKey }),
    ...(refreshToken === undefined ? {} : { refreshToken }),
    ...(section.scope === undefined ? {} : { scope: section.scope }),
    resource: section.resource ?? url,
  });
  return tokenFetch(tokens);
}
