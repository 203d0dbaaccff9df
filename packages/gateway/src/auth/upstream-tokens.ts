import { messageOf } from '@toolgate/core';
import { z } from 'zod';
import { expandVariables } from '../variables.js';
import { issuerMetadata } from './issuer-metadata.js';
import { fileRefreshToken, memoryRefreshToken, type RefreshTokenStore } from './refresh-token-store.js';

const nonEmpty = z.string().min(1, 'must not be empty');
const variable = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be the name of an environment variable');

/**
 * An HTTP upstream's `oauth:`: the gateway obtains its access tokens by the client credentials
 * grant (RFC 6749 §4.4), or with a stored refresh token (§6; `refresh_token` or
 * `refresh_token_file`), from `token_endpoint` (or the one `issuer`'s metadata names), for the
 * upstream's URL as the resource (RFC 8707), caches them and gets a new one before one expires.
 */
export const upstreamOAuthSchema = z
  .strictObject({
    issuer: z.url({ message: 'must be the authorization server issuer URL' }).optional(),
    token_endpoint: z.url({ message: 'must be the token endpoint URL' }).optional(),
    client_id: nonEmpty,
    // the environment variable holding the client secret (never the secret itself); without a
    // refresh token it is required (client credentials), with one optional (a public client)
    client_secret_env: variable.optional(),
    // a refresh token to renew with instead (usually "${VAR}"); a rotated one is kept in memory
    refresh_token: nonEmpty.optional(),
    // or the file holding it: a rotated one is written back there (atomically, mode 0600)
    refresh_token_file: nonEmpty.optional(),
    scope: nonEmpty.optional(),
    // the audience to ask for; default: the upstream's url
    resource: z.url({ message: 'must be a URL' }).optional(),
  })
  .refine((oauth) => (oauth.issuer === undefined) !== (oauth.token_endpoint === undefined), {
    message: 'give exactly one of "issuer" (its metadata names the token endpoint) or "token_endpoint"',
  })
  .refine((oauth) => oauth.refresh_token === undefined || oauth.refresh_token_file === undefined, {
    message: 'give one of "refresh_token" or "refresh_token_file", not both',
    path: ['refresh_token_file'],
  })
  .refine(
    (oauth) =>
      oauth.client_secret_env !== undefined ||
      oauth.refresh_token !== undefined ||
      oauth.refresh_token_file !== undefined,
    {
      message:
        'give "client_secret_env" (client credentials) or a refresh token ("refresh_token" or "refresh_token_file")',
      path: ['client_secret_env'],
    },
  );

/** An upstream's `oauth:` as written. */
export type UpstreamOAuthSection = z.output<typeof upstreamOAuthSchema>;

/** What {@link UpstreamTokens} needs: where to ask, as whom, for what (the secret read already). */
export interface UpstreamTokenSource {
  /** The upstream's name, for messages. */
  readonly upstream: string;
  readonly issuer?: string;
  readonly tokenEndpoint?: string;
  readonly clientId: string;
  /** Absent: a public client (its client_id sent in the body). */
  readonly clientSecret?: string;
  /** Present: the refresh token grant with this token; absent: client credentials. */
  readonly refreshToken?: RefreshTokenStore;
  readonly scope?: string;
  readonly resource: string;
}

/** How long before its expiry a token is replaced. */
const marginMs = 30_000;

/**
 * The access tokens of one upstream: obtained by client credentials or a refresh token (a rotated
 * one kept for the next time), kept in memory, replaced shortly before they expire or when the
 * upstream refuses one (401). A token or the secret is never put in a message; a refusal by the
 * token endpoint is told by its `error` code.
 */
export class UpstreamTokens {
  readonly #source: UpstreamTokenSource;
  readonly #clock: () => number;
  #held: { token: string; expiresAt: number } | undefined;
  #pending: Promise<{ token: string; expiresAt: number }> | undefined;

  /** `clock`: ms since the epoch (default `Date.now`). */
  constructor(source: UpstreamTokenSource, clock: () => number = Date.now) {
    this.#source = source;
    this.#clock = clock;
  }

  /** A token valid for at least the margin, obtained now if the one held is not (one request at a time). */
  async token(): Promise<string> {
    const held = this.#held;
    if (held !== undefined && held.expiresAt - marginMs > this.#clock()) return held.token;
    if (this.#pending === undefined) {
      const pending = this.#obtain();
      this.#pending = pending;
      pending.then(
        (got) => {
          this.#held = got;
          this.#pending = undefined;
        },
        () => {
          this.#pending = undefined;
        },
      );
    }
    return (await this.#pending).token;
  }

  /** Drops `token` (the upstream refused it), so the next request gets a new one. */
  refused(token: string): void {
    if (this.#held?.token === token) this.#held = undefined;
  }

  async #obtain(): Promise<{ token: string; expiresAt: number }> {
    const source = this.#source;
    const where = `servers.${source.upstream}.oauth`;
    let endpoint = source.tokenEndpoint;
    if (endpoint === undefined) {
      const metadata = await issuerMetadata(source.issuer ?? '').catch((error: unknown) => {
        throw new Error(`${where}: ${messageOf(error)}`);
      });
      if (metadata.token_endpoint === undefined) {
        throw new Error(
          `${where}: the metadata of ${source.issuer} names no token_endpoint; set token_endpoint`,
        );
      }
      endpoint = metadata.token_endpoint;
    }
    const headers: Record<string, string> = {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    };
    const body = new URLSearchParams({ resource: source.resource });
    if (source.refreshToken === undefined) body.set('grant_type', 'client_credentials');
    else {
      body.set('grant_type', 'refresh_token');
      body.set('refresh_token', source.refreshToken.current());
    }
    if (source.clientSecret === undefined) body.set('client_id', source.clientId);
    else {
      const pair = `${encodeURIComponent(source.clientId)}:${encodeURIComponent(source.clientSecret)}`;
      headers.authorization = `Basic ${Buffer.from(pair).toString('base64')}`;
    }
    if (source.scope !== undefined) body.set('scope', source.scope);
    const started = this.#clock();
    let response: Response;
    try {
      response = await fetch(endpoint, {
        method: 'POST',
        headers,
        body,
        redirect: 'error',
        signal: AbortSignal.timeout(30_000),
      });
    } catch (error) {
      throw new Error(`${where}: the token endpoint ${endpoint} could not be reached: ${messageOf(error)}`);
    }
    const answer = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    if (!response.ok || typeof answer.access_token !== 'string') {
      const code = typeof answer.error === 'string' ? ` ${answer.error.slice(0, 100)}` : '';
      const check =
        source.refreshToken === undefined
          ? 'check its client_id, the secret in client_secret_env and the scope'
          : 'the refresh token may be expired, revoked or already used: give a new one in refresh_token or refresh_token_file; check also client_id, client_secret_env and the scope';
      throw new Error(
        `${where}: the token endpoint ${endpoint} refused client "${source.clientId}" (HTTP ${response.status}${code}); ${check}`,
      );
    }
    const rotated = answer.refresh_token;
    if (source.refreshToken !== undefined && typeof rotated === 'string' && rotated !== '') {
      await source.refreshToken.save(rotated);
    }
    const lifetime = typeof answer.expires_in === 'number' ? answer.expires_in * 1000 : 300_000;
    return { token: answer.access_token, expiresAt: started + lifetime };
  }
}

/**
 * A fetch that sends each request with the upstream's current access token, and on a 401 gets a
 * new token and sends the request once more. Any `Authorization` the request had is replaced.
 */
export function tokenFetch(tokens: UpstreamTokens, base: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const send = async () => {
      const token = await tokens.token();
      const headers = new Headers(init?.headers);
      headers.set('authorization', `Bearer ${token}`);
      return { token, response: await base(input, { ...init, headers }) };
    };
    const first = await send();
    const replayable = init?.body === undefined || init.body === null || typeof init.body === 'string';
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
    ...(section.issuer === undefined ? {} : { issuer: section.issuer }),
    ...(section.token_endpoint === undefined ? {} : { tokenEndpoint: section.token_endpoint }),
    clientId: section.client_id,
    ...(secret === undefined ? {} : { clientSecret: secret }),
    ...(refreshToken === undefined ? {} : { refreshToken }),
    ...(section.scope === undefined ? {} : { scope: section.scope }),
    resource: section.resource ?? url,
  });
  return tokenFetch(tokens);
}
