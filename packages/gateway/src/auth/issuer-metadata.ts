import { messageOf } from '@toolgate/core';

/** What the gateway reads of an authorization server's metadata. */
export interface IssuerMetadata {
  readonly issuer: string;
  readonly jwks_uri?: string;
  readonly token_endpoint?: string;
  readonly token_endpoint_auth_methods_supported?: readonly string[];
}

/**
 * The metadata of the authorization server `issuer`: its OAuth metadata (RFC 8414, the well-known
 * path inserted before the issuer's own path) or, failing that, its OpenID configuration. Metadata
 * naming another issuer is refused (RFC 8414 §3.3). Throws naming each place tried and why.
 */
export async function issuerMetadata(issuer: string): Promise<IssuerMetadata> {
  const url = new URL(issuer);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  const places = [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${url.origin}${path}/.well-known/openid-configuration`,
  ];
  const problems: string[] = [];
  for (const place of places) {
    try {
      const response = await fetch(place, { signal: AbortSignal.timeout(10_000), redirect: 'error' });
      if (!response.ok) {
        problems.push(`${place}: HTTP ${response.status}`);
        continue;
      }
      const metadata = (await response.json()) as Record<string, unknown>;
      if (metadata.issuer !== issuer) {
        problems.push(
          `${place}: its issuer is ${JSON.stringify(metadata.issuer)}, not ${JSON.stringify(issuer)}`,
        );
        continue;
      }
      return {
        issuer,
        ...(typeof metadata.jwks_uri === 'string' ? { jwks_uri: metadata.jwks_uri } : {}),
        ...(typeof metadata.token_endpoint === 'string' ? { token_endpoint: metadata.token_endpoint } : {}),
        ...(Array.isArray(metadata.token_endpoint_auth_methods_supported)
          ? { token_endpoint_auth_methods_supported: metadata.token_endpoint_auth_methods_supported }
          : {}),
      };
    } catch (error) {
      problems.push(`${place}: ${messageOf(error)}`);
    }
  }
  throw new Error(`no usable metadata of ${issuer} (${problems.join('; ')})`);
}
