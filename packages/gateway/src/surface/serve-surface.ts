import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CompleteRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { Gateway } from '../gateway.js';
import { complete } from './completion.js';
import { getPrompt, promptsFor } from './prompts.js';
import { readResource, resourcesFor, resourceTemplatesFor, subscribeResource } from './resources.js';
import type { HubSession } from './session-hub.js';
import { eachUpstream } from './upstream-lists.js';

/**
 * Serves the upstreams' prompts, resources, completion and logging to one client's session, each
 * behind the client's `prompts` / `resources` grant: lists show only what is granted, a get, read,
 * subscription or completion outside the grant is refused with the config entry to change, and
 * every get and read is recorded. Call before the server connects (it declares the capabilities);
 * the session it returns is in the gateway's hub until the server closes.
 */
export function serveSurface(server: Server, gateway: Gateway, client: string): HubSession {
  server.registerCapabilities({
    prompts: { listChanged: true },
    resources: { listChanged: true, subscribe: true },
    completions: {},
    logging: {},
  });
  const session = gateway.sessions.add(client, server);
  server.setRequestHandler(ListPromptsRequestSchema, async () => {
    const prompts = await promptsFor(gateway, client);
    session.seen.prompts = JSON.stringify(prompts);
    return { prompts };
  });
  server.setRequestHandler(GetPromptRequestSchema, (request) =>
    getPrompt(gateway, client, request.params.name, request.params.arguments),
  );
  server.setRequestHandler(ListResourcesRequestSchema, async () => {
    const resources = await resourcesFor(gateway, client);
    session.seen.resources = JSON.stringify(resources);
    return { resources };
  });
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: await resourceTemplatesFor(gateway, client),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, (request) =>
    readResource(gateway, client, request.params.uri),
  );
  server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    await subscribeResource(gateway, client, request.params.uri);
    session.subscriptions.add(request.params.uri);
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
    // the upstream subscription stays (other sessions may hold it); this session stops hearing of it
    session.subscriptions.delete(request.params.uri);
    return {};
  });
  server.setRequestHandler(CompleteRequestSchema, (request) => complete(gateway, client, request.params));
  server.setRequestHandler(SetLevelRequestSchema, async (request) => {
    session.logLevel = request.params.level;
    // each upstream that logs is asked for this level; the hub filters per session
    await eachUpstream(gateway, 'logging', 'setting its log level', async (upstream, timeout) => {
      await upstream.setLoggingLevel(request.params.level, { timeout });
      return [];
    });
    return {};
  });
  return session;
}
