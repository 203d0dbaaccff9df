import type { CallerIdentity } from './access-token.js';
import type { Admitted } from './authenticate.js';

/** The `AuthInfo` both SDK lines hand a request's handlers: the client's name as `clientId`, the caller as `extra.identity`. */
export interface GatewayAuthInfo {
  token: string;
  clientId: string;
  scopes: string[];
  extra?: { identity: CallerIdentity };
}

/** The `AuthInfo` of an admitted request (never the token itself). */
export function authInfoOf(admitted: Admitted): GatewayAuthInfo {
  return {
    token: '',
    clientId: admitted.client,
    scopes: [...(admitted.identity?.scopes ?? [])],
    ...(admitted.identity === undefined ? {} : { extra: { identity: admitted.identity } }),
  };
}

/** The caller an `AuthInfo` names, when an access token named one. */
export function identityOf(
  authInfo: { extra?: Record<string, unknown> } | undefined,
): CallerIdentity | undefined {
  return authInfo?.extra?.identity as CallerIdentity | undefined;
}

/** An access token's caller as the ledger records it with each call (`caller.identified`). */
export function identityRecord(identity: CallerIdentity): Record<string, string | string[]> {
  return {
    issuer: identity.issuer,
    subject: identity.subject,
    ...(identity.clientId === undefined ? {} : { clientId: identity.clientId }),
    scopes: [...identity.scopes],
  };
}
