import type { CompleteRequest, CompleteResult } from '@modelcontextprotocol/sdk/types.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerConfig } from '@toolgate/mcp-client';
import type { Gateway } from '../gateway.js';
import { findPrompt } from './prompts.js';
import { notGranted, rpcError, upstreamError } from './refusals.js';
import { surfaceGrantOf } from './surface-grant.js';
import { collectPages, eachUpstream, upstreamKey } from './upstream-lists.js';

const noCompletion: CompleteResult = { completion: { values: [] } };

/**
 * Completes an argument of a prompt or resource template for `client`, on the upstream that has
 * it: a prompt only when its `prompts` grant names it, a template only on an upstream where it
 * holds a `resources` pattern. An upstream that offers no completion answers with no values.
 */
export async function complete(
  gateway: Gateway,
  client: string,
  params: CompleteRequest['params'],
): Promise<CompleteResult> {
  const grant = surfaceGrantOf(gateway.client(client), client);
  let server: McpServerConfig;
  let ref: CompleteRequest['params']['ref'];
  if (params.ref.type === 'ref/prompt') {
    const name = params.ref.name;
    if (!grant.prompts.allows(name)) throw notGranted(gateway, client, 'prompt', name);
    const found = await findPrompt(gateway, name);
    if (found === undefined) {
      throw rpcError(
        ErrorCode.InvalidParams,
        `no upstream of the gateway serves prompt ${JSON.stringify(name)}`,
      );
    }
    server = found.server;
    ref = { ...params.ref, name: found.remoteName };
  } else {
    const template = params.ref.uri;
    const granted = gateway.config.servers.filter((candidate) =>
      grant.resourceKeys.has(upstreamKey(candidate)),
    );
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
      granted,
    );
    const holder = lists.find(({ items }) => items.some((item) => item.uriTemplate === template));
    if (holder === undefined) {
      throw rpcError(
        ErrorCode.InvalidParams,
        `no upstream on which client "${client}" holds a resources pattern has the resource template ${JSON.stringify(template)}`,
      );
    }
    server = holder.server;
    ref = params.ref;
  }
  try {
    return await gateway.resolver.request(server.name, 'completing an argument', (upstream, timeout) =>
      upstream.getServerCapabilities()?.completions === undefined
        ? Promise.resolve(noCompletion)
        : upstream.complete({ ...params, ref }, { timeout }),
    );
  } catch (error) {
    throw upstreamError(error);
  }
}
