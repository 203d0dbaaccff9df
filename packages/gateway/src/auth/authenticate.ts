import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { messageOf } from '@toolgate/core';
import { decodeJwt } from 'jose';
import type { Gateway } from '../gateway.js';
import { AccessTokenVerifier, type CallerIdentity } from './access-token.js';
import { matchClient } from './client-match.js';
import type { OAuthSettings } from './oauth-schema.js';
import { answerResourceMetadata, bearerChallenge, metadataUrl } from './protected-resource.js';
import { type RefusalRecordLimits, RefusalRecords } from './refusal-records.js';

/** A request let in: the config client it is, and who the token named (absent for a static token). */
export interface Admitted {
  readonly client: string;
  readonly identity?: CallerIdentity;
  /** Whose a session is: the client and, for an access token, its issuer and subject. */
  readonly owner: string;
}

/** A request refused before MCP sees it: the status, the `WWW-Authenticate` value, the message. */
export interface Refused {
  readonly status: 401 | 403 | 503;
  readonly challenge: string;
  readonly message: string;
}

/**
 * Says which client an HTTP request is, from its bearer token: a client's static token
 * (`token_env`), or, with an `oauth:` section, a JWT access token the issuer signed for this
 * resource, matched to a client by its claims (`match:`). Serves the Protected Resource Metadata.
 * A presented token that is refused is recorded (`access.refused`: why, and what it claimed — never
 * the token); a request with no token is not (it is how a client starts discovery). A flood is
 * recorded in part: per window the first refusals of each address, then a summary count
 * ({@link RefusalRecords}).
 */
export class HttpAuthentication {
  readonly #gateway: Gateway;
  readonly #env: NodeJS.ProcessEnv;
  readonly #listening: () => string;
  #verifier: { key: string; verifier: AccessTokenVerifier } | undefined;
  readonly #refusals: RefusalRecords;

  /** `listening`: the listener's own MCP URL, this resource when `oauth.resource` is not given. */
  constructor(
    gateway: Gateway,
    env: NodeJS.ProcessEnv,
    listening: () => string,
    refusalLimits: RefusalRecordLimits = {},
  ) {
    this.#gateway = gateway;
    this.#refusals = new RefusalRecords((kind, payload) => gateway.note(kind, payload), refusalLimits);
    this.#env = env;
    this.#listening = listening;
  }

  /** Answers the Protected Resource Metadata when the config has `oauth:` and the path is its; else false. */
  answerMetadata(request: IncomingMessage, response: ServerResponse): boolean {
    const settings = this.#gateway.config.oauth;
    if (settings === undefined) return false;
    return answerResourceMetadata(request, response, settings, this.#resource(settings));
  }

  /** The client of a request with this `Authorization` header from address `from`, or why it is refused. */
  async admit(header: string | undefined, from = 'unknown'): Promise<Admitted | Refused> {
    const settings = this.#gateway.config.oauth;
    const match = /^Bearer\s+(.+)$/i.exec(header ?? '');
    const token = match?.[1]?.trim();
    const fixed = token === undefined ? undefined : this.#staticClient(token);
    if (fixed !== undefined) return { client: fixed, owner: fixed };
    if (settings === undefined) {
      return {
        status: 401,
        challenge: 'Bearer',
        message: 'missing or unknown bearer token: send the token of a configured client',
      };
    }
    const resource = this.#resource(settings);
    if (token === undefined) {
      return {
        status: 401,
        challenge: bearerChallenge(resource, settings),
        message: `missing bearer token: get an access token for ${resource} from ${settings.issuer} (see ${metadataUrl(resource)})`,
      };
    }
    const check = await this.#verifierFor(settings, resource).verify(token);
    if (!check.ok) {
      await this.#refused({ status: check.status, reason: check.description, token, from });
      return {
        status: check.status,
        challenge: bearerChallenge(resource, settings, {
          error: check.error,
          description: check.description,
        }),
        message: `${check.description}; get a new access token for ${resource} from ${settings.issuer}`,
      };
    }
    const { identity } = check;
    const client = matchClient(this.#gateway.config, identity);
    if (client === undefined) {
      const description = `the token of sub ${JSON.stringify(identity.subject)}${identity.clientId === undefined ? '' : ` (client_id ${JSON.stringify(identity.clientId)})`} matches no client's match: in ${this.#gateway.config.source}`;
      await this.#refused({ status: 403, reason: description, token, from });
      return {
        status: 403,
        challenge: bearerChallenge(resource, settings),
        message: `${description}; add a client whose match: names its sub, client_id, groups or scopes`,
      };
    }
    return {
      client: client.name,
      identity,
      owner: `${client.name}\n${identity.issuer}\n${identity.subject}`,
    };
  }

  #resource(settings: OAuthSettings): string {
    return settings.resource ?? this.#listening();
  }

  #verifierFor(settings: OAuthSettings, resource: string): AccessTokenVerifier {
    const key = `${JSON.stringify(settings)}\n${resource}`;
    if (this.#verifier?.key !== key)
      this.#verifier = { key, verifier: new AccessTokenVerifier(settings, resource) };
    return this.#verifier.verifier;
  }

  #staticClient(token: string): string | undefined {
    const given = Buffer.from(token);
    let found: string | undefined;
    for (const client of this.#gateway.config.clients.values()) {
      const expected = client.tokenEnv === undefined ? undefined : this.#env[client.tokenEnv];
      if (expected === undefined) continue;
      const bytes = Buffer.from(expected);
      if (given.length === bytes.length && timingSafeEqual(given, bytes)) found = client.name;
    }
    return found;
  }

  /** Writes the summary of refusals not yet recorded (at the listener's close). */
  async flushRefusals(): Promise<void> {
    try {
      await this.#refusals.flush();
    } catch (error) {
      this.#gateway.log(`could not record the summary of refused access tokens: ${messageOf(error)}`);
    }
  }

  async #refused(refusal: { status: number; reason: string; token: string; from: string }): Promise<void> {
    const { status, reason, token, from } = refusal;
    const claimed = claimsOf(token);
    try {
      await this.#refusals.refused(from, { status, reason, ...claimed });
    } catch (error) {
      this.#gateway.log(`could not record a refused access token: ${messageOf(error)}`);
    }
  }
}

/** What an unverified token claims (issuer, subject, client), for the record of its refusal. */
function claimsOf(token: string): Record<string, string> {
  try {
    const claims = decodeJwt(token);
    const claimed: Record<string, string> = {};
    if (typeof claims.iss === 'string') claimed.claimedIssuer = claims.iss.slice(0, 200);
    if (typeof claims.sub === 'string') claimed.claimedSubject = claims.sub.slice(0, 200);
    const clientId = claims.client_id ?? claims.azp;
    if (typeof clientId === 'string') claimed.claimedClientId = clientId.slice(0, 200);
    return claimed;
  } catch {
    return {};
  }
}
