import { messageOf } from '@toolgate/core';
import { z } from 'zod';
import { issuerMetadata } from './issuer-metadata.js';

const nonEmpty = z.string().min(1, 'must not be empty');
const variable = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be the name of an environment variable');

/**
 * An HTTP upstream's `oauth:`: the gateway obtains its access tokens by the client credentials
 * grant (RFC 6749 §4.4) from `token_endpoint` (or the one `issuer`'s metadata names), for the
 * upstream's URL as the resource (RFC 8707), caches them and gets a new one before one expires.
 */
export const upstreamOAuthSchema = z
  .strictObject({
    issuer: z.url({ message: 'must be the authorization server issuer URL' }).optional(),
    token_endpoint: z.url({ message: 'must be the token endpoint URL' }).optional(),
    client_id: nonEmpty,
    // the environment variable holding the client secret (never the secret itself)
    client_secret_env: variable,
    scope: nonEmpty.optional(),
    // the audience to ask for; default: the upstream's url
    resource: z.url({ message: 'must be a URL' }).optional(),
  })
  .refine((oauth) => (oauth.issuer === undefined) !== (oauth.token_endpoint === undefined), {
    message: 'give exactly one of "issuer" (its metadata names the token endpoint) or "token_endpoint"',
  });

/** An upstream's `oauth:` as written. */
export type UpstreamOAuthSection = z.output<typeof upstreamOAuthSchema>;

/** What {@link UpstreamTokens} needs: where to ask, as whom, for what (the secret read already). */
export interface UpstreamTokenSource {
  /** The upstream's name, for messages. */
  readonly upstream: string;
  readonly issuer?: string;
  readonly tokenEndpoint?: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly scope?: string;
  readonly resource: string;
}

/** How long before its expiry a token is replaced. */
const marginMs = 30_000;

/**
 * The access tokens of one upstream: obtained by client credentials, kept in memory, replaced
 * shortly before they expire or when the upstream refuses one (401). A token or the secret is
 * never put in a message; a refusal by the token endpoint is told by its `error` code.
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
    const basic = Buffer.from(
      `${encodeURIComponent(source.clientId)}:${encodeURIComponent(source.clientSecret)}`,
    ).toString('base64');
    const body = new URLSearchParams({ grant_type: 'client_credentials', resource: source.resource });
    if (source.scope !== undefined) body.set('scope', source.scope);
    const started = this.#clock();
    let response: Response;
    try {
      response = await fetch(endpoint, {
        method: 'POST',
        headers: {
          authorization: `Basic ${basic}`,
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
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
      throw new Error(
        `${where}: the token endpoint ${endpoint} refused client "${source.clientId}" (HTTP ${response.status}${code}); check its client_id, the secret in client_secret_env and the scope`,
      );
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
 * The fetch of an HTTP upstream with an `oauth:` section: its secret read from the environment now
 * (a problem is thrown as a message naming the key, never the value).
 */
export function upstreamFetch(options: {
  upstream: string;
  url: string;
  section: UpstreamOAuthSection;
  env: NodeJS.ProcessEnv;
}): typeof fetch {
  const { upstream, url, section, env } = options;
  const secret = env[section.client_secret_env];
  if (secret === undefined || secret === '') {
    throw new Error(
      `servers.${upstream}.oauth.client_secret_env: the environment variable ${section.client_secret_env} is not set; set it to the client secret of "${section.client_id}"`,
    );
  }
  const tokens = new UpstreamTokens({
    upstream,
    ...(section.issuer === undefined ? {} : { issuer: section.issuer }),
    ...(section.token_endpoint === undefined ? {} : { tokenEndpoint: section.token_endpoint }),
    clientId: section.client_id,
    clientSecret: secret,
    ...(section.scope === undefined ? {} : { scope: section.scope }),
    resource: section.resource ?? url,
  });
  return tokenFetch(tokens);
}
