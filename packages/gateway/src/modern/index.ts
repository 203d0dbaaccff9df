import type { Server } from '@modelcontextprotocol/server';
import type { ModernHttpHandler } from '@toolgate/mcp-server';
import { modernHttpHandler } from '@toolgate/mcp-server';
import { identityOf } from '../auth/index.js';
import type { Gateway } from '../gateway.js';
import { AnsweredStates } from './answered-states.js';
import { approvalCodec } from './approval-state.js';
import { HeldCalls } from './held-calls.js';
import { createModernGatewayServer } from './modern-server.js';
import { modernSurfaceOf } from './modern-surface.js';

/**
 * The gateway's 2026-07-28 side: each request a fresh 2.x server for the client its token named
 * (given as `authInfo.clientId`), nothing kept between requests; `ask` by multi-round trip with a
 * `requestState` signed by `TOOLGATE_GATEWAY_STATE_KEY` (see `approvalCodec`); `server/discover`
 * declares the union of what the upstreams serve the client (`modernSurfaceOf`), and the prompts,
 * resources and completion it declares are served. An upstream's own requests during a call
 * (elicitation, sampling, roots) reach the client as `input_required` while the call is held
 * (`HeldCalls`). Loads the SDK's 2.x server only when called.
 */
export async function gatewayModernHandler(
  gateway: Gateway,
  env: NodeJS.ProcessEnv,
): Promise<ModernHttpHandler> {
  const sdk = await import('@modelcontextprotocol/server');
  const codec = await approvalCodec(env);
  const answered = new AnsweredStates();
  const heldCalls = new HeldCalls(gateway);
  return modernHttpHandler(
    async (authInfo) => {
      const client = authInfo?.clientId;
      if (client === undefined) throw new Error('the gateway names the client of every modern request');
      return createModernGatewayServer({
        surface: await modernSurfaceOf(gateway, client),
        gateway,
        client,
        codec,
        answered,
        heldCalls,
        sdk,
        identity: identityOf(authInfo),
      });
    },
    {
      // a call's Mcp-Param-* headers are checked against the tool as this client's tools/list serves it
      toolInputSchema: async (tool, authInfo) => {
        const client = authInfo?.clientId;
        if (client === undefined) return undefined;
        return (await gateway.toolsFor(client)).find((served) => served.name === tool)?.inputSchema;
      },
    },
  );
}

/**
 * The gateway's 2026-07-28 side over stdio: makes the 2.x server of the connection of `client` (the
 * config's `stdio:` client) when its opening is modern — what the upstreams serve it, `ask` by
 * multi-round trip as over HTTP. Loads the SDK's 2.x server only when called.
 */
export async function gatewayModernStdioServer(
  gateway: Gateway,
  client: string,
  env: NodeJS.ProcessEnv,
): Promise<() => Promise<Server>> {
  const sdk = await import('@modelcontextprotocol/server');
  const codec = await approvalCodec(env);
  const answered = new AnsweredStates();
  const heldCalls = new HeldCalls(gateway);
  return async () =>
    createModernGatewayServer({
      gateway,
      client,
      codec,
      answered,
      heldCalls,
      sdk,
      surface: await modernSurfaceOf(gateway, client),
    });
}
