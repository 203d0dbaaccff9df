import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { Gateway } from '../gateway.js';
import { getPrompt, promptsFor } from './prompts.js';
import { readResource, resourcesFor, resourceTemplatesFor } from './resources.js';

/**
 * Serves the upstreams' prompts and resources to one client's session, each behind the client's
 * `prompts` / `resources` grant: lists show only what is granted, a get or read outside the grant
 * is refused with the config entry to change, and every get and read is recorded. Call before the
 * server connects (it declares the `prompts` and `resources` capabilities).
 */
export function serveSurface(server: Server, gateway: Gateway, client: string): void {
  server.registerCapabilities({ prompts: {}, resources: {} });
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: await promptsFor(gateway, client),
  }));
  server.setRequestHandler(GetPromptRequestSchema, (request) =>
    getPrompt(gateway, client, request.params.name, request.params.arguments),
  );
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: await resourcesFor(gateway, client),
  }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: await resourceTemplatesFor(gateway, client),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, (request) =>
    readResource(gateway, client, request.params.uri),
  );
}
