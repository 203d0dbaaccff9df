import { messageOf } from '@toolgate/core';
import { issuerMetadata } from './issuer-metadata.js';
import { metadataUrl } from './protected-resource.js';

/** Where an upstream's tokens come from and for what, as its protected resource metadata says. */
export interface DiscoveredAuthorization {
  readonly issuer: string;
  readonly tokenEndpoint: string;
  /** The resource identifier exactly as the metadata publishes it (sent as `resource`, RFC 8707). */
  readonly resource: string;
  /** How the token endpoint takes a client's credentials, if the metadata says. */
  readonly authMethods?: readonly string[];
}

/** The `resource_metadata` URL of a `WWW-Authenticate: Bearer` challenge (RFC 9728 §5.1), if any. */
export function challengedMetadataUrl(challenge: string | null): string | undefined {
  return /(?:^|[\s,])resource_metadata="([^"]+)"/i.exec(challenge ?? '')?.[1];
}

/** A URL, https, or http on loopback only. */
function secure(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const { protocol, hostname } = new URL(url);
  return (
    protocol === 'https:' || (protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(hostname))
  );
}

/**
 * Whether protected resource metadata for `published` covers `resource`: the same origin, and the
 * same path or one under it (a server's metadata at its root, for `/mcp`), spelt alike or not.
 */
function covers(published: string, resource: string): boolean {
  try {
    const outer = new URL(published);
    const inner = new URL(resource);
    if (outer.origin !== inner.origin || outer.search !== inner.search) return false;
    const path = outer.pathname.replace(/\/$/, '');
    return inner.pathname === outer.pathname || inner.pathname.startsWith(`${path}/`);
  } catch {
    return false;
  }
}

/**
 * The authorization server of an upstream that names none in its config: its protected resource
 * metadata (RFC 9728) at the URL its 401 challenge gave, else at the well-known places for its URL;
 * the metadata must be for `resource` (the upstream's URL, or `oauth.resource`) or a path above it
 * on the same origin; its first
 * authorization server's metadata (RFC 8414) must name that same issuer and a token endpoint; every
 * URL must be https, or http on loopback. Anything else is refused with a message naming `where`
 * (the config key).
 */
export async function discoverAuthorization(options: {
  where: string;
  url: string;
  resource: string;
  challenged?: string;
}): Promise<DiscoveredAuthorization> {
  const { where, resource } = options;
  const wellKnown = new URL(options.url);
  const places =
    options.challenged === undefined
      ? [...new Set([metadataUrl(options.url), `${wellKnown.origin}/.well-known/oauth-protected-resource`])]
      : [
          URL.canParse(options.challenged, options.url)
            ? new URL(options.challenged, options.url).href
            : options.challenged,
        ];
  const problems: string[] = [];
  for (const place of places) {
    if (!secure(place)) {
      throw new Error(
        `${where}: the upstream's protected resource metadata ${place} is not an https URL (nor http on loopback); set issuer or token_endpoint`,
      );
    }
    let metadata: Record<string, unknown>;
    try {
      const response = await fetch(place, { signal: AbortSignal.timeout(10_000), redirect: 'error' });
      if (!response.ok) {
        problems.push(`${place}: HTTP ${response.status}`);
        continue;
      }
      metadata = (await response.json()) as Record<string, unknown>;
    } catch (error) {
      problems.push(`${place}: ${messageOf(error)}`);
      continue;
    }
    if (typeof metadata.resource !== 'string' || !covers(metadata.resource, resource)) {
      throw new Error(
        `${where}: the protected resource metadata ${place} is for the resource ${JSON.stringify(metadata.resource)}, not ${resource} (the upstream's url, or ${where}.resource); no token is asked for another resource`,
      );
    }
    const servers = metadata.authorization_servers;
    const issuer = Array.isArray(servers) && typeof servers[0] === 'string' ? servers[0] : undefined;
    if (issuer === undefined) {
      throw new Error(
        `${where}: the protected resource metadata ${place} names no authorization_servers; set issuer or token_endpoint`,
      );
    }
    if (!secure(issuer)) {
      throw new Error(
        `${where}: the authorization server ${issuer} that ${place} names is not an https URL (nor http on loopback); set issuer or token_endpoint`,
      );
    }
    const server = await issuerMetadata(issuer).catch((error: unknown) => {
      throw new Error(
        `${where}: the authorization server that ${place} names: ${messageOf(error)}; set issuer or token_endpoint`,
      );
    });
    if (server.token_endpoint === undefined || !secure(server.token_endpoint)) {
      throw new Error(
        `${where}: the metadata of ${issuer} names ${server.token_endpoint === undefined ? 'no token_endpoint' : `the token endpoint ${server.token_endpoint}, not an https URL (nor http on loopback)`}; set token_endpoint`,
      );
    }
    return {
      issuer,
      tokenEndpoint: server.token_endpoint,
      resource: metadata.resource,
      ...(server.token_endpoint_auth_methods_supported === undefined
        ? {}
        : { authMethods: server.token_endpoint_auth_methods_supported }),
    };
  }
  throw new Error(
    `${where}: no protected resource metadata of the upstream (${problems.join('; ')}); set issuer or token_endpoint`,
  );
}
