import type { IncomingMessage, ServerResponse } from 'node:http';
import type { OAuthSettings } from './oauth-schema.js';

const wellKnown = '/.well-known/oauth-protected-resource';

/** Where this resource's metadata is served (RFC 9728 §3.1: the well-known prefix before the resource's path). */
export function metadataUrl(resource: string): string {
  const url = new URL(resource);
  const path = url.pathname === '/' ? '' : url.pathname;
  return `${url.origin}${wellKnown}${path}`;
}

/**
 * Answers `GET /.well-known/oauth-protected-resource` and its path-suffixed form (for the MCP
 * endpoint `/mcp`: `/.well-known/oauth-protected-resource/mcp`) with the Protected Resource
 * Metadata (RFC 9728) an MCP client reads to find the authorization server. Returns false for any
 * other path.
 */
export function answerResourceMetadata(
  request: IncomingMessage,
  response: ServerResponse,
  settings: OAuthSettings,
  resource: string,
): boolean {
  const path = new URL(request.url ?? '/', 'http://localhost').pathname;
  const suffix = new URL(resource).pathname;
  if (path !== wellKnown && path !== `${wellKnown}${suffix === '/' ? '' : suffix}`) return false;
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' });
    response.end(`${path} answers GET only\n`);
    return true;
  }
  response.writeHead(200, {
    'Content-Type': 'application/json',
    'Cache-Control': 'max-age=300',
    'Access-Control-Allow-Origin': '*',
  });
  response.end(
    JSON.stringify({
      resource,
      authorization_servers: [settings.issuer],
      ...(settings.scopes.length === 0 ? {} : { scopes_supported: settings.scopes }),
      bearer_methods_supported: ['header'],
      resource_name: 'toolgate-gateway',
    }),
  );
  return true;
}

/** The `WWW-Authenticate` value of a refusal (RFC 6750 §3, RFC 9728 §5.1): where the metadata is, and the error. */
export function bearerChallenge(
  resource: string,
  settings: OAuthSettings,
  refusal?: { error: string; description: string },
): string {
  const parts = [`resource_metadata="${metadataUrl(resource)}"`];
  if (settings.scopes.length > 0) parts.push(`scope="${settings.scopes.join(' ')}"`);
  if (refusal !== undefined) {
    parts.push(`error="${refusal.error}"`, `error_description="${refusal.description.replaceAll('"', "'")}"`);
  }
  return `Bearer ${parts.join(', ')}`;
}
