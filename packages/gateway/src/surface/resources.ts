import type { ReadResourceResult, Resource, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { messageOf } from '@toolgate/core';
import type { McpServerConfig } from '@toolgate/mcp-client';
import type { Gateway } from '../gateway.js';
import { notGranted, rpcError, upstreamError } from './refusals.js';
import { refusedByPolicy } from './resource-policy.js';
import { surfaceGrantOf } from './surface-grant.js';
import { collectPages, eachUpstream, upstreamKey } from './upstream-lists.js';

/**
 * Every upstream resource `client` is granted and policy lets it read (its URI unchanged), in
 * config order: a URI a read of would be refused is not offered.
 */
export async function resourcesFor(gateway: Gateway, client: string): Promise<Resource[]> {
  const grant = surfaceGrantOf(gateway.client(client), client);
  const lists = await listResources(gateway);
  return lists.flatMap(({ server, items }) =>
    items.filter(
      (resource) =>
        grant.resource(upstreamKey(server), resource.uri) &&
        refusedByPolicy(gateway, client, resource.uri) === undefined,
    ),
  );
}

/**
 * The resource templates of every upstream on which `client` holds a `resources` pattern (a read
 * of a URI made from one is still judged on the URI itself).
 */
export async function resourceTemplatesFor(gateway: Gateway, client: string): Promise<ResourceTemplate[]> {
  const grant = surfaceGrantOf(gateway.client(client), client);
  const lists = await eachUpstream(
    gateway,
    'resources',
    'listing its resource templates',
    (upstream, timeout) =>
      collectPages(async (cursor) => {
        const page = await upstream.listResourceTemplates(cursor === undefined ? {} : { cursor }, {
          timeout,
        });
        return { items: page.resourceTemplates, nextCursor: page.nextCursor };
      }),
  );
  return lists.flatMap(({ server, items }) => (grant.resourceKeys.has(upstreamKey(server)) ? items : []));
}

/**
 * Reads a resource for `client`: refused (recorded, and a JSON-RPC error naming the fix) unless one
 * of its `resources` patterns matches the URI on the upstream that has it; else read from that
 * upstream and recorded as `resource.read` (client, URI, server, outcome). Where the URI is granted
 * on several upstreams, the one that lists it is read; when that is not exactly one, it is refused.
 */
export async function readResource(
  gateway: Gateway,
  client: string,
  uri: string,
): Promise<ReadResourceResult> {
  const server = await upstreamOf(gateway, client, uri, 'resource.read');
  try {
    const result = await gateway.resolver.request(
      server.name,
      `reading resource ${JSON.stringify(uri)}`,
      (upstream, timeout) => upstream.readResource({ uri }, { timeout }),
    );
    await gateway.note('resource.read', { client, uri, server: server.name, outcome: 'read' });
    return result;
  } catch (error) {
    const reason = messageOf(error);
    await gateway.note('resource.read', { client, uri, server: server.name, outcome: 'failed', reason });
    throw upstreamError(error);
  }
}

/**
 * Subscribes `client` to updates of a resource it is granted (refused as a read would be), on the
 * upstream that has it; recorded as `resource.subscribed`.
 */
export async function subscribeResource(gateway: Gateway, client: string, uri: string): Promise<void> {
  const server = await upstreamOf(gateway, client, uri, 'resource.subscribed');
  try {
    await gateway.resolver.request(
      server.name,
      `subscribing to resource ${JSON.stringify(uri)}`,
      (upstream, timeout) => upstream.subscribeResource({ uri }, { timeout }),
    );
    await gateway.note('resource.subscribed', { client, uri, server: server.name, outcome: 'subscribed' });
  } catch (error) {
    const reason = messageOf(error);
    await gateway.note('resource.subscribed', {
      client,
      uri,
      server: server.name,
      outcome: 'failed',
      reason,
    });
    throw upstreamError(error);
  }
}

/**
 * The one upstream `client` may reach `uri` on: the one whose key a matching `resources` pattern
 * names, or, among several, the one that lists the URI — and then only if policy allows the read
 * (judged on the URI). Else refused: recorded as `kind` and thrown as the JSON-RPC error naming the fix.
 */
async function upstreamOf(
  gateway: Gateway,
  client: string,
  uri: string,
  kind: string,
): Promise<McpServerConfig> {
  const grant = surfaceGrantOf(gateway.client(client), client);
  const refuse = async (reason: string, error: Error): Promise<never> => {
    await gateway.note(kind, { client, uri, outcome: 'refused', reason });
    throw error;
  };
  let candidates = gateway.config.servers.filter((server) => grant.resource(upstreamKey(server), uri));
  if (candidates.length === 0) return refuse('not granted', notGranted(gateway, client, 'resource', uri));
  if (candidates.length > 1) {
    const listing = await listResources(gateway, candidates);
    const listers = new Set(
      listing
        .filter(({ items }) => items.some((resource) => resource.uri === uri))
        .map(({ server }) => server.name),
    );
    const names = candidates.map((server) => `"${server.name}"`).join(', ');
    candidates = candidates.filter((server) => listers.has(server.name));
    if (candidates.length !== 1) {
      const message =
        `resource ${JSON.stringify(uri)} is granted to client "${client}" on several upstreams (${names}) and ` +
        `${candidates.length === 0 ? 'none' : 'more than one'} of them lists it, so the gateway cannot tell which to use; ` +
        `narrow clients.${client}.resources in ${gateway.config.source} to one upstream's prefix`;
      return refuse('ambiguous upstream', rpcError(ErrorCode.InvalidParams, message));
    }
  }
  const refused = refusedByPolicy(gateway, client, uri);
  if (refused !== undefined) {
    const { decision, rule, reason } = refused.verdict;
    await gateway.note(kind, {
      client,
      uri,
      server: candidates[0]!.name,
      outcome: 'refused',
      reason: `policy: ${reason}`,
      decision,
      ...(rule === undefined ? {} : { rule }),
    });
    throw refused.error;
  }
  return candidates[0]!;
}

function listResources(
  gateway: Gateway,
  only?: readonly McpServerConfig[],
): Promise<Array<{ server: McpServerConfig; items: Resource[] }>> {
  return eachUpstream(
    gateway,
    'resources',
    'listing its resources',
    (upstream, timeout) =>
      collectPages(async (cursor) => {
        const page = await upstream.listResources(cursor === undefined ? {} : { cursor }, { timeout });
        return { items: page.resources, nextCursor: page.nextCursor };
      }),
    only,
  );
}
