import { messageOf } from '@toolgate/core';
import { type AssertionKey, clientAssertion } from './client-assertion.js';
import { issuerMetadata } from './issuer-metadata.js';
import type { RefreshTokenStore } from './refresh-token-store.js';
import { challengedMetadataUrl, discoverAuthorization } from './resource-discovery.js';

/** What {@link UpstreamTokens} needs: where to ask, as whom, for what (the secret read already). */
export interface UpstreamTokenSource {
  /** The upstream's name, for messages. */
  readonly upstream: string;
  /** The upstream's URL: where its protected resource metadata is looked for. */
  readonly url: string;
  /** Neither this nor `tokenEndpoint`: the upstream's protected resource metadata names the issuer. */
  readonly issuer?: string;
  readonly tokenEndpoint?: string;
  readonly clientId: string;
  /** Neither this nor `assertionKey`: a public client (its client_id sent in the body). */
  readonly clientSecret?: string;
  /** The key of `private_key_jwt` client authentication. */
  readonly assertionKey?: AssertionKey;
  /** Present: the refresh token grant with this token; absent: client credentials. */
  readonly refreshToken?: RefreshTokenStore;
  readonly scope?: string;
  readonly resource: string;
}

/**
 * Where tokens are asked for: the endpoint, the issuer (a client assertion's audience), the
 * resource, and how the endpoint takes a secret if its metadata says.
 */
interface Authorization {
  readonly tokenEndpoint: string;
  readonly issuer?: string;
  readonly resource: string;
  readonly authMethods?: readonly string[];
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
  #discovered: Authorization | undefined;
  #challenge: { url?: string } | undefined;

  /** `clock`: ms since the epoch (default `Date.now`). */
  constructor(source: UpstreamTokenSource, clock: () => number = Date.now) {
    this.#source = source;
    this.#clock = clock;
  }

  /**
   * Whether the upstream is to be asked once without a token first: its authorization server is
   * to be discovered and no 401 of it has been seen yet (its challenge names where its metadata is).
   */
  awaitsChallenge(): boolean {
    const source = this.#source;
    return (
      source.issuer === undefined &&
      source.tokenEndpoint === undefined &&
      this.#discovered === undefined &&
      this.#challenge === undefined
    );
  }

  /** Takes the upstream's 401 `WWW-Authenticate` (its `resource_metadata`) for discovery. */
  challenged(header: string | null): void {
    const url = challengedMetadataUrl(header);
    this.#challenge = url === undefined ? {} : { url };
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

  async #authorization(where: string): Promise<Authorization> {
    const source = this.#source;
    if (source.tokenEndpoint !== undefined) {
      return { tokenEndpoint: source.tokenEndpoint, resource: source.resource };
    }
    if (source.issuer !== undefined) {
      const metadata = await issuerMetadata(source.issuer).catch((error: unknown) => {
        throw new Error(`${where}: ${messageOf(error)}`);
      });
      if (metadata.token_endpoint === undefined) {
        throw new Error(
          `${where}: the metadata of ${source.issuer} names no token_endpoint; set token_endpoint`,
        );
      }
      return {
        tokenEndpoint: metadata.token_endpoint,
        issuer: source.issuer,
        resource: source.resource,
        ...(metadata.token_endpoint_auth_methods_supported === undefined
          ? {}
          : { authMethods: metadata.token_endpoint_auth_methods_supported }),
      };
    }
    this.#discovered ??= await discoverAuthorization({
      where,
      url: source.url,
      resource: source.resource,
      ...(this.#challenge?.url === undefined ? {} : { challenged: this.#challenge.url }),
    });
    return this.#discovered;
  }

  async #obtain(): Promise<{ token: string; expiresAt: number }> {
    const source = this.#source;
    const where = `servers.${source.upstream}.oauth`;
    const authorization = await this.#authorization(where);
    const endpoint = authorization.tokenEndpoint;
    const headers: Record<string, string> = {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    };
    const body = new URLSearchParams({ resource: authorization.resource });
    if (source.refreshToken === undefined) body.set('grant_type', 'client_credentials');
    else {
      body.set('grant_type', 'refresh_token');
      body.set('refresh_token', source.refreshToken.current());
    }
    const methods = authorization.authMethods;
    const postOnly =
      methods?.includes('client_secret_post') === true && !methods.includes('client_secret_basic');
    if (source.clientSecret !== undefined && postOnly) {
      body.set('client_id', source.clientId);
      body.set('client_secret', source.clientSecret);
    } else if (source.clientSecret !== undefined) {
      const pair = `${encodeURIComponent(source.clientId)}:${encodeURIComponent(source.clientSecret)}`;
      headers.authorization = `Basic ${Buffer.from(pair).toString('base64')}`;
    } else {
      body.set('client_id', source.clientId);
      if (source.assertionKey !== undefined) {
        const assertion = await clientAssertion({
          key: source.assertionKey,
          clientId: source.clientId,
          audience: authorization.issuer ?? endpoint,
          now: this.#clock(),
        });
        body.set('client_assertion_type', 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
        body.set('client_assertion', assertion);
      }
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
      const credential =
        source.assertionKey === undefined
          ? 'the secret in client_secret_env'
          : 'the key in client_assertion_key_file';
      const check =
        source.refreshToken === undefined
          ? `check its client_id, ${credential} and the scope`
          : `the refresh token may be expired, revoked or already used: give a new one in refresh_token or refresh_token_file; check also client_id, ${credential} and the scope`;
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
