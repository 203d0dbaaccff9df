import type { ServerCapabilities, Server as ServerType } from '@modelcontextprotocol/server';
import { messageOf } from '@toolgate/core';
import type { Gateway } from '../gateway.js';
import { complete } from '../surface/completion.js';
import { findPrompt, getPrompt, promptsFor } from '../surface/prompts.js';
import { readResource, resourcesFor, resourceTemplatesFor } from '../surface/resources.js';
import { surfaceGrantOf } from '../surface/surface-grant.js';
import { upstreamKey } from '../surface/upstream-lists.js';
import { callDigest } from './approval-state.js';
import { type HeldServing, serveHeld } from './upstream-relay.js';

/** What the gateway offers one modern client, as `server/discover` says it. */
export interface ModernSurface {
  /** Some upstream serves tools. */
  tools: boolean;
  /** Some upstream serves prompts and the client holds a `prompts` pattern. */
  prompts: boolean;
  /** Some upstream on which the client holds a `resources` pattern serves resources. */
  resources: boolean;
  /** Completion, where some upstream offers it and the client sees prompts or resources. */
  completions: boolean;
}

/** A list is one client's view: never cached beyond it, never kept (the upstreams change). */
const listHints = { ttlMs: 0, cacheScope: 'private' as const };

/**
 * The union of what the gateway's upstreams (either era: MCPResolver meets a 2026-07-28 upstream
 * through `server/discover`) serve through it to `client`, cut by the client's grants as the legacy
 * lists are: prompts only for a client with `prompts` patterns, resources only from an upstream its
 * `resources` patterns name. An upstream that cannot say is left out and told to the operator's log.
 */
export async function modernSurfaceOf(gateway: Gateway, client: string): Promise<ModernSurface> {
  const known = gateway.client(client);
  const grant = surfaceGrantOf(known, client);
  const surface: ModernSurface = { tools: false, prompts: false, resources: false, completions: false };
  await Promise.all(
    gateway.config.servers.map(async (server) => {
      let offered: Record<string, unknown>;
      try {
        offered = await gateway.resolver.request(server.name, 'reading its capabilities', async (upstream) =>
          Promise.resolve(upstream.getServerCapabilities() ?? {}),
        );
      } catch (error) {
        gateway.log(`upstream "${server.name}": reading its capabilities: ${messageOf(error)}`);
        return;
      }
      if (offered.tools !== undefined) surface.tools = true;
      const prompts = offered.prompts !== undefined && (known?.prompts.length ?? 0) > 0;
      const resources = offered.resources !== undefined && grant.resourceKeys.has(upstreamKey(server));
      if (prompts) surface.prompts = true;
      if (resources) surface.resources = true;
      if (offered.completions !== undefined && (prompts || resources)) surface.completions = true;
    }),
  );
  return surface;
}

/** The capabilities a modern server declares for `surface` (no list-change or subscription streams). */
export function modernCapabilities(surface: ModernSurface): ServerCapabilities {
  return {
    ...(surface.tools ? { tools: { listChanged: false } } : {}),
    ...(surface.prompts ? { prompts: { listChanged: false } } : {}),
    ...(surface.resources ? { resources: { listChanged: false, subscribe: false } } : {}),
    ...(surface.completions ? { completions: {} } : {}),
  };
}

/**
 * Serves `surface`'s prompts, resources and completion to one modern request of `client`, through
 * the very functions the legacy session uses: the same grants, the same policy on each URI, the same
 * lock-file reviews, each get and read recorded; lists carry `cacheScope: private`. A prompt get is
 * held while its upstream asks the client something, as a tool call is (`serveHeld`).
 */
export function serveModernSurface(
  server: ServerType,
  gateway: Gateway,
  client: string,
  surface: ModernSurface,
  held: HeldServing,
): void {
  if (surface.prompts) {
    server.setRequestHandler('prompts/list', async () => ({
      prompts: (await promptsFor(gateway, client)) as never,
      ...listHints,
    }));
    server.setRequestHandler('prompts/get', async (request, context) => {
      const { name, arguments: parameters } = request.params;
      const outcome = await serveHeld(held, context, {
        call: callDigest(`prompt:${name}`, parameters),
        server: (await findPrompt(gateway, name))?.server.name,
        run: () => getPrompt(gateway, client, name, parameters),
      });
      return (outcome.done ? outcome.result : outcome.inputRequired) as never;
    });
  }
  if (surface.resources) {
    server.setRequestHandler('resources/list', async () => ({
      resources: (await resourcesFor(gateway, client)) as never,
      ...listHints,
    }));
    server.setRequestHandler('resources/templates/list', async () => ({
      resourceTemplates: (await resourceTemplatesFor(gateway, client)) as never,
      ...listHints,
    }));
    server.setRequestHandler(
      'resources/read',
      async (request) =>
        ({ ...(await readResource(gateway, client, request.params.uri)), ...listHints }) as never,
    );
  }
  if (surface.completions) {
    server.setRequestHandler(
      'completion/complete',
      async (request) => (await complete(gateway, client, request.params as never)) as never,
    );
  }
}
