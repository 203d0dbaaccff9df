import { messageOf } from '@toolgate/core';
import { createRemoteJWKSet, errors, type JWTPayload, jwtVerify } from 'jose';
import { issuerMetadata } from './issuer-metadata.js';
import type { OAuthSettings } from './oauth-schema.js';

/** Who a verified access token says is calling: recorded with each of its calls. */
export interface CallerIdentity {
  /** The authorization server that issued the token (`iss`). */
  readonly issuer: string;
  /** The user or service it was issued to (`sub`; for a token without one, its client id). */
  readonly subject: string;
  /** The OAuth client that obtained it (`client_id`, else `azp`), when the token says. */
  readonly clientId?: string;
  readonly scopes: readonly string[];
  readonly groups: readonly string[];
}

/** A token checked: who it names, or why it is refused (the status and OAuth error to answer with). */
export type TokenCheck =
  | { readonly ok: true; readonly identity: CallerIdentity }
  | {
      readonly ok: false;
      readonly status: 401 | 403 | 503;
      readonly error: 'invalid_token' | 'insufficient_scope' | 'temporarily_unavailable';
      readonly description: string;
    };

// asymmetric signatures only: a key set published for anyone to read never verifies an HMAC
const algorithms = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
];

/**
 * Verifies JWT access tokens for one resource (RFC 9068 profile, through `jose`): the signature
 * against the issuer's published keys (found from its metadata, RFC 8414, unless `jwks_uri` is
 * given; refetched when a new key id appears), `iss`, `aud` = the resource (RFC 8707), `exp` and
 * `nbf` within the clock skew, then the required scopes (403 `insufficient_scope`). Never fails open:
 * keys that cannot be fetched refuse the token (503).
 */
export class AccessTokenVerifier {
  readonly #settings: OAuthSettings;
  readonly #resource: string;
  #keys: Promise<ReturnType<typeof createRemoteJWKSet>> | undefined;

  constructor(settings: OAuthSettings, resource: string) {
    this.#settings = settings;
    this.#resource = resource;
  }

  /** Checks `token`; never throws. */
  async verify(token: string): Promise<TokenCheck> {
    let keys: ReturnType<typeof createRemoteJWKSet>;
    try {
      this.#keys ??= this.#findKeys();
      keys = await this.#keys;
    } catch (error) {
      this.#keys = undefined; // the next request tries again
      return unavailable(`the keys of ${this.#settings.issuer} could not be fetched: ${messageOf(error)}`);
    }
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keys, {
        issuer: this.#settings.issuer,
        audience: this.#resource,
        clockTolerance: this.#settings.clockSkewSeconds,
        algorithms,
        requiredClaims: ['exp'],
      }));
    } catch (error) {
      if (error instanceof errors.JWKSTimeout || !(error instanceof errors.JOSEError)) {
        return unavailable(`the keys of ${this.#settings.issuer} could not be fetched: ${messageOf(error)}`);
      }
      return { ok: false, status: 401, error: 'invalid_token', description: refusalOf(error) };
    }
    const identity = identityOf(payload, this.#settings);
    if (identity === undefined) {
      return {
        ok: false,
        status: 401,
        error: 'invalid_token',
        description: 'the token names no sub, client_id or azp',
      };
    }
    const missing = this.#settings.scopes.filter((scope) => !identity.scopes.includes(scope));
    if (missing.length > 0) {
      return {
        ok: false,
        status: 403,
        error: 'insufficient_scope',
        description: `the token lacks the scope${missing.length > 1 ? 's' : ''} ${missing.join(' ')} this gateway requires`,
      };
    }
    return { ok: true, identity };
  }

  async #findKeys(): Promise<ReturnType<typeof createRemoteJWKSet>> {
    const uri = this.#settings.jwksUri ?? (await discoverJwksUri(this.#settings.issuer));
    return createRemoteJWKSet(new URL(uri), { timeoutDuration: 10_000, cooldownDuration: 30_000 });
  }
}

/** The issuer's `jwks_uri`, from its metadata. */
async function discoverJwksUri(issuer: string): Promise<string> {
  const metadata = await issuerMetadata(issuer);
  if (metadata.jwks_uri === undefined)
    throw new Error(`the metadata of ${issuer} names no jwks_uri; set oauth.jwks_uri`);
  return metadata.jwks_uri;
}

function identityOf(payload: JWTPayload, settings: OAuthSettings): CallerIdentity | undefined {
  const clientId = stringClaim(payload.client_id) ?? stringClaim(payload.azp);
  const subject = stringClaim(payload.sub) ?? clientId;
  if (subject === undefined) return undefined;
  return {
    issuer: String(payload.iss),
    subject,
    ...(clientId === undefined ? {} : { clientId }),
    scopes: listClaim(payload.scope ?? payload.scp, ' '),
    groups: listClaim(payload[settings.groupsClaim], undefined),
  };
}

function stringClaim(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

function listClaim(value: unknown, separator: string | undefined): string[] {
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  if (typeof value !== 'string' || value.length === 0) return [];
  return separator === undefined ? [value] : value.split(separator).filter((item) => item.length > 0);
}

function refusalOf(error: InstanceType<typeof errors.JOSEError>): string {
  if (error instanceof errors.JWTExpired) return 'the token has expired';
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'aud') return 'the token is for another resource (its aud is not this gateway)';
    if (error.claim === 'iss') return 'the token was issued by another authorization server';
    if (error.claim === 'nbf') return 'the token is not valid yet (nbf)';
    return `the token's ${error.claim} claim is not acceptable: ${error.reason}`;
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'the token signature does not verify';
  if (error instanceof errors.JWKSNoMatchingKey)
    return "the token is signed by no key of the issuer's key set";
  if (error instanceof errors.JOSEAlgNotAllowed) return 'the token is signed with an algorithm not accepted';
  return `the token is not a valid JWT access token (${error.code})`;
}

function unavailable(description: string): TokenCheck {
  return { ok: false, status: 503, error: 'temporarily_unavailable', description };
}
