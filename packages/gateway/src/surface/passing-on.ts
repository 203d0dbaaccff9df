import type { McpServerConfig } from '@toolgate/mcp-client';
import type { Gateway } from '../gateway.js';
import { promptsFor } from './prompts.js';
import { resourcesFor } from './resources.js';
import type { ListKind, SessionHub } from './session-hub.js';
import { surfaceGrantOf } from './surface-grant.js';
import { toolListFor } from './tool-list.js';
import { upstreamKey } from './upstream-lists.js';

type UpstreamRequest = { method: string; params?: Record<string, unknown> };

/**
 * The upstream configs with the hooks that pass what an upstream tells on to the sessions: its
 * prompt and resource list changes, resource updates and log messages, and its own requests to
 * its client (`answer`).
 */
export function passingOn(
  servers: readonly McpServerConfig[],
  sessions: SessionHub,
  answer: (server: string, request: UpstreamRequest, signal: AbortSignal) => Promise<Record<string, unknown>>,
): McpServerConfig[] {
  return servers.map((server) => ({
    ...server,
    onServerRequest: (request, signal) => answer(server.name, request, signal),
    onNotification: ({ method, params }) => {
      if (method === 'notifications/prompts/list_changed') void sessions.listChanged('prompts');
      else if (method === 'notifications/resources/list_changed') void sessions.listChanged('resources');
      else if (method === 'notifications/resources/updated' && typeof params?.uri === 'string') {
        void sessions.resourceUpdated(params.uri);
      }
    },
    onLog: (entry) => {
      server.onLog?.(entry);
      void sessions.log(entry);
    },
  }));
}

/** A client's view of one list now, as the canonical text a session's `seen` holds. */
export async function listView(gateway: Gateway, client: string, kind: ListKind): Promise<string> {
  if (kind === 'tools') return JSON.stringify(await toolListFor(gateway, client));
  if (kind === 'prompts') return JSON.stringify(await promptsFor(gateway, client));
  return JSON.stringify(await resourcesFor(gateway, client));
}

/** True when `client` is granted a tool, prompt or resource of the upstream `server`. */
export function concerns(gateway: Gateway, client: string, server: string): boolean {
  const config = gateway.config.servers.find((candidate) => candidate.name === server);
  if (config === undefined) return false;
  const tools = gateway.resolver
    .servedNames()
    .some((name) => gateway.resolver.serverOf(name) === server && gateway.grants(client, name));
  if (tools) return true;
  const grant = surfaceGrantOf(gateway.client(client), client);
  if (grant.resourceKeys.has(upstreamKey(config))) return true;
  return (
    config.prefix !== undefined &&
    grant.prompts.granted.some((pattern) => pattern.startsWith(`${config.prefix}__`))
  );
}
