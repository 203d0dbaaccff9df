import type { GetPromptResult, Prompt } from '@modelcontextprotocol/sdk/types.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { messageOf } from '@toolgate/core';
import type { McpServerConfig } from '@toolgate/mcp-client';
import type { Gateway } from '../gateway.js';
import { type ListedPrompt, reviewedPrompts } from '../lock/prompt-reviews.js';
import { notGranted, rpcError, upstreamError } from './refusals.js';
import { surfaceGrantOf } from './surface-grant.js';
import { collectPages, eachUpstream, servedName } from './upstream-lists.js';

/**
 * Every upstream prompt `client` is granted, named as the gateway serves it (`prefix__name`), that
 * the lock file's reviews allow (a new or changed prompt is withheld until approved).
 */
export async function promptsFor(gateway: Gateway, client: string): Promise<Prompt[]> {
  const grant = surfaceGrantOf(gateway.client(client), client).prompts;
  const reviewed = await reviewedPrompts(gateway, listedPrompts(await listAll(gateway)));
  return reviewed
    .map(({ served, prompt }) => ({ ...prompt, name: served }))
    .filter((prompt) => grant.allows(prompt.name));
}

function listedPrompts(lists: Array<{ server: McpServerConfig; items: Prompt[] }>): ListedPrompt[] {
  return lists.flatMap(({ server, items }) =>
    items.map((prompt) => ({ served: servedName(server, prompt.name), server: server.name, prompt })),
  );
}

/**
 * Gets a prompt for `client`: refused (recorded, and a JSON-RPC error naming the fix) unless its
 * `prompts` grant names it; else fetched from the upstream that serves it and recorded as
 * `prompt.got` (client, prompt, server, arguments, outcome).
 */
export async function getPrompt(
  gateway: Gateway,
  client: string,
  name: string,
  parameters: Record<string, string> | undefined,
): Promise<GetPromptResult> {
  const record = { client, prompt: name, arguments: JSON.stringify(parameters ?? {}) };
  if (!surfaceGrantOf(gateway.client(client), client).prompts.allows(name)) {
    await gateway.note('prompt.got', { ...record, outcome: 'refused', reason: 'not granted' });
    throw notGranted(gateway, client, 'prompt', name);
  }
  const found = await findPrompt(gateway, name);
  if (found === undefined) {
    await gateway.note('prompt.got', { ...record, outcome: 'refused', reason: 'no upstream serves it' });
    throw rpcError(
      ErrorCode.InvalidParams,
      `no upstream of the gateway serves prompt ${JSON.stringify(name)}`,
    );
  }
  const { server, remoteName } = found;
  // only a prompt its upstream lists, as the lock file's review of it allows
  const listed = listedPrompts(await listAll(gateway, [server])).filter((entry) => entry.served === name);
  if ((await reviewedPrompts(gateway, listed)).length === 0) {
    const reason = listed.length === 0 ? 'its upstream does not list it' : 'not reviewed';
    await gateway.note('prompt.got', { ...record, server: server.name, outcome: 'refused', reason });
    throw rpcError(
      ErrorCode.InvalidParams,
      listed.length === 0
        ? `upstream "${server.name}" does not list prompt ${JSON.stringify(name)}, so it cannot be reviewed; the gateway serves only listed prompts`
        : `prompt ${JSON.stringify(name)} is new or changed since its review in the lock file: see toolgate-gateway review --config ${gateway.config.source}, then approve it (toolgate-gateway approve ${name} --fingerprint F --config ${gateway.config.source})`,
    );
  }
  try {
    const result = await gateway.resolver.request(
      server.name,
      `getting prompt "${remoteName}"`,
      (upstream, timeout) =>
        upstream.getPrompt(
          { name: remoteName, ...(parameters === undefined ? {} : { arguments: parameters }) },
          { timeout },
        ),
    );
    await gateway.note('prompt.got', { ...record, server: server.name, outcome: 'got' });
    return result;
  } catch (error) {
    await gateway.note('prompt.got', {
      ...record,
      server: server.name,
      outcome: 'failed',
      reason: messageOf(error),
    });
    throw upstreamError(error);
  }
}

function listAll(
  gateway: Gateway,
  only?: readonly McpServerConfig[],
): Promise<Array<{ server: McpServerConfig; items: Prompt[] }>> {
  return eachUpstream(
    gateway,
    'prompts',
    'listing its prompts',
    (upstream, timeout) =>
      collectPages(async (cursor) => {
        const page = await upstream.listPrompts(cursor === undefined ? {} : { cursor }, { timeout });
        return { items: page.prompts, nextCursor: page.nextCursor };
      }),
    only,
  );
}

/** The upstream serving the prompt `name` and its name there: by prefix, else the unprefixed upstream that lists it. */
export async function findPrompt(
  gateway: Gateway,
  name: string,
): Promise<{ server: McpServerConfig; remoteName: string } | undefined> {
  for (const server of gateway.config.servers) {
    if (server.prefix !== undefined && name.startsWith(`${server.prefix}__`)) {
      return { server, remoteName: name.slice(server.prefix.length + 2) };
    }
  }
  const lists = await listAll(gateway);
  for (const { server, items } of lists) {
    if (server.prefix === undefined && items.some((prompt) => prompt.name === name))
      return { server, remoteName: name };
  }
  return undefined;
}
