/** A client of the test authorization server. */
export interface TestClient {
  clientId: string;
  secret: string;
  /** The scopes it may ask for, space-separated (`tools`, `other`). */
  scope: string;
  /** Its tokens' `groups` claim. */
  groups?: string[];
  /** Its access tokens' lifetime (default 300 s). */
  ttlSeconds?: number;
}

/** A running oidc-provider on loopback. */
export interface TestAuthorizationServer {
  issuer: string;
  requests: { token: number };
  token(clientId: string, options: { resource: string; scope?: string }): Promise<string>;
  close(): Promise<void>;
}

export function startAuthorizationServer(options: {
  clients: TestClient[];
}): Promise<TestAuthorizationServer>;
