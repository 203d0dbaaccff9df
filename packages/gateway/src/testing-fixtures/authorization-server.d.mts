/** A client of the test authorization server. */
export interface TestClient {
  clientId: string;
  secret: string;
  /** Its public key (a JWK): it authenticates by private_key_jwt instead of its secret. */
  jwk?: Record<string, unknown>;
  /** The scopes it may ask for, space-separated (`tools`, `other`). */
  scope: string;
  /** Its tokens' `groups` claim. */
  groups?: string[];
  /** Its access tokens' lifetime (default 300 s). */
  ttlSeconds?: number;
  /** It may also use the refresh_token grant (every refresh token is rotated on use). */
  refreshTokens?: boolean;
}

/** A running oidc-provider on loopback. */
export interface TestAuthorizationServer {
  issuer: string;
  /** Tokens issued; token requests that authenticated by HTTP Basic. */
  requests: { token: number; basic: number };
  token(clientId: string, options: { resource: string; scope?: string }): Promise<string>;
  /** A refresh token of `accountId`'s grant of `scope` for `resource`, made through the provider's models. */
  refreshToken(
    clientId: string,
    options: { resource: string; accountId: string; scope?: string },
  ): Promise<string>;
  /** The token endpoint's answer to a refresh with `refreshToken`. */
  refresh(
    clientId: string,
    refreshToken: string,
    resource: string,
  ): Promise<{ status: number; error?: string }>;
  close(): Promise<void>;
}

export function startAuthorizationServer(options: {
  clients: TestClient[];
  /** Its metadata takes secrets only in the body (client_secret_post, besides private_key_jwt). */
  secretInBody?: boolean;
}): Promise<TestAuthorizationServer>;
