import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createRemoteJWKSet, jwtVerify } from 'jose';

/** A streamable HTTP MCP server (stateless) that serves only requests bearing an access token of `issuer` for its own URL. */
export interface GuardedUpstream {
  url: string;
  /** Every token it accepted, in order. */
  accepted: string[];
  /** How many times its protected resource metadata was read. */
  reads: { metadata: number };
  /** Refuses the next request whose token is `token` (as if revoked), with 401. */
  revoke(token: string): void;
  close(): Promise<void>;
}

/** What a {@link GuardedUpstream} publishes as its protected resource metadata (RFC 9728). */
export interface PublishedMetadata {
  /** Its `resource` (default: the upstream's URL). */
  resource?: string;
  /** Its `authorization_servers` (default: the issuer). */
  authorizationServers?: string[];
  /** Whether its 401s name the metadata in `WWW-Authenticate` (default true). */
  challenge?: boolean;
}

/**
 * Starts a {@link GuardedUpstream} on loopback; its one tool `whoami` answers the token's `sub`.
 * With `metadata`, it serves its protected resource metadata at
 * `/.well-known/oauth-protected-resource/mcp` and names it in its 401s' `WWW-Authenticate`.
 */
export async function startGuardedUpstream(
  issuer: string,
  metadata?: PublishedMetadata,
): Promise<GuardedUpstream> {
  const keys = createRemoteJWKSet(new URL(`${issuer}/jwks`));
  const accepted: string[] = [];
  const reads = { metadata: 0 };
  const revoked = new Set<string>();
  let url = '';
  const server = createServer(async (request, response) => {
    const origin = new URL(url).origin;
    if (metadata !== undefined && request.url === '/.well-known/oauth-protected-resource/mcp') {
      reads.metadata++;
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end(
        JSON.stringify({
          resource: metadata.resource ?? url,
          authorization_servers: metadata.authorizationServers ?? [issuer],
        }),
      );
      return;
    }
    const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    let subject: string | undefined;
    if (token !== undefined && !revoked.has(token)) {
      try {
        const { payload } = await jwtVerify(token, keys, { issuer, audience: url });
        subject = payload.sub;
      } catch {
        subject = undefined;
      }
    }
    if (token !== undefined) revoked.delete(token);
    if (subject === undefined) {
      const where = `, resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`;
      response.writeHead(401, {
        'WWW-Authenticate': `Bearer error="invalid_token"${metadata === undefined || metadata.challenge === false ? '' : where}`,
      });
      response.end();
      return;
    }
    accepted.push(token!);
    const mcp = new McpServer({ name: 'guarded', version: '1.0.0' });
    mcp.registerTool('whoami', { description: 'Answers the subject of the access token.' }, () => ({
      content: [{ type: 'text', text: String(subject) }],
    }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on('close', () => {
      void transport.close();
      void mcp.close();
    });
    await mcp.connect(transport);
    await transport.handleRequest(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  return {
    url,
    accepted,
    reads,
    revoke: (token) => revoked.add(token),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
