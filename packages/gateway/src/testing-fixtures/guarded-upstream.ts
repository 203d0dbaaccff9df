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
  /** Refuses the next request whose token is `token` (as if revoked), with 401. */
  revoke(token: string): void;
  close(): Promise<void>;
}

/** Starts a {@link GuardedUpstream} on loopback; its one tool `whoami` answers the token's `sub`. */
export async function startGuardedUpstream(issuer: string): Promise<GuardedUpstream> {
  const keys = createRemoteJWKSet(new URL(`${issuer}/jwks`));
  const accepted: string[] = [];
  const revoked = new Set<string>();
  let url = '';
  const server = createServer(async (request, response) => {
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
      response.writeHead(401, { 'WWW-Authenticate': 'Bearer error="invalid_token"' });
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
    revoke: (token) => revoked.add(token),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
