import { z } from 'zod';

const nonEmpty = z.string().min(1, 'must not be empty');
const names = z.array(nonEmpty).min(1, 'give at least one value');

/**
 * The gateway's `oauth:` section: it is an OAuth 2.1 resource server (the MCP authorization spec)
 * for the authorization server `issuer`, taking JWT access tokens whose audience is `resource`.
 */
export const oauthSchema = z.strictObject({
  // the authorization server's issuer identifier, exactly as its tokens' `iss` (https, or http on loopback)
  issuer: z.url({ message: 'must be the authorization server issuer URL, e.g. https://idp.example.com' }),
  // this gateway's MCP endpoint as clients reach it: the audience its tokens must carry (RFC 8707)
  resource: z
    .url({ message: 'must be the URL clients use for this gateway, e.g. https://gateway.example.com/mcp' })
    .optional(),
  // where the issuer's signing keys are; default: its metadata's jwks_uri
  jwks_uri: z.url({ message: "must be the URL of the issuer's JSON Web Key Set" }).optional(),
  // scopes every token must hold (else 403 insufficient_scope)
  scopes: z.array(nonEmpty).optional(),
  // how far `exp` and `nbf` may be off, in seconds (default 30)
  clock_skew_seconds: z.number().int().min(0).max(300).optional(),
  // the claim that lists a token's groups (default "groups")
  groups_claim: nonEmpty.optional(),
});

/**
 * How an HTTP client is recognised from an OAuth access token: every key given must hold (a
 * `sub` of the list, a `client_id`/`azp` of the list, one of the groups, all of the scopes).
 */
export const clientMatchSchema = z
  .strictObject({
    sub: names.optional(),
    client_id: names.optional(),
    groups: names.optional(),
    scopes: names.optional(),
  })
  .refine((match) => Object.keys(match).length > 0, {
    message: 'name at least one of sub, client_id, groups, scopes',
  });

/** The `oauth:` section as written. */
export type OAuthSection = z.output<typeof oauthSchema>;
/** A client's `match:` as written. */
export type ClientMatchSection = z.output<typeof clientMatchSchema>;

/** The resource server's settings, checked. */
export interface OAuthSettings {
  readonly issuer: string;
  /** The audience a token must carry; undefined: the listener's own URL and path. */
  readonly resource?: string;
  readonly jwksUri?: string;
  readonly scopes: readonly string[];
  readonly clockSkewSeconds: number;
  readonly groupsClaim: string;
}

/** What recognises a client from a token (see {@link clientMatchSchema}). */
export interface ClientMatch {
  readonly sub?: readonly string[];
  readonly clientId?: readonly string[];
  readonly groups?: readonly string[];
  readonly scopes?: readonly string[];
}

/** The `oauth:` section as the gateway uses it. */
export function oauthSettings(section: OAuthSection): OAuthSettings {
  return {
    issuer: section.issuer,
    ...(section.resource === undefined ? {} : { resource: section.resource }),
    ...(section.jwks_uri === undefined ? {} : { jwksUri: section.jwks_uri }),
    scopes: section.scopes ?? [],
    clockSkewSeconds: section.clock_skew_seconds ?? 30,
    groupsClaim: section.groups_claim ?? 'groups',
  };
}

/** A client's `match:` as the gateway uses it. */
export function clientMatch(section: ClientMatchSection): ClientMatch {
  return {
    ...(section.sub === undefined ? {} : { sub: section.sub }),
    ...(section.client_id === undefined ? {} : { clientId: section.client_id }),
    ...(section.groups === undefined ? {} : { groups: section.groups }),
    ...(section.scopes === undefined ? {} : { scopes: section.scopes }),
  };
}
