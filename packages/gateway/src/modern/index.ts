import type { ModernHttpHandler } from '@toolgate/mcp-server';
import { modernHttpHandler } from '@toolgate/mcp-server';
import { identityOf } from '../auth/index.js';
import type { Gateway } from '../gateway.js';
import { AnsweredStates } from './answered-states.js';
import { approvalCodec } from './approval-state.js';
import { createModernGatewayServer } from './modern-server.js';

/**
 * The gateway's 2026-07-28 side: each request a fresh 2.x server for the client its token named
 * (given as `authInfo.clientId`), nothing kept between requests; `ask` by multi-round trip with a
 * `requestState` signed by `TOOLGATE_GATEWAY_STATE_KEY` (see `approvalCodec`). Loads the SDK's 2.x
 * server only when called.
 */
export async function gatewayModernHandler(
  gateway: Gateway,
  env: NodeJS.ProcessEnv,
): Promise<ModernHttpHandler> {
  const sdk = await import('@modelcontextprotocol/server');
  const codec = await approvalCodec(env);
  const answered = new AnsweredStates();
  return modernHttpHandler((authInfo) => {
    const client = authInfo?.clientId;
    if (client === undefined) throw new Error('the gateway names the client of every modern request');
    return createModernGatewayServer({
      gateway,
      client,
      codec,
      answered,
      sdk,
      identity: identityOf(authInfo),
    });
  });
}
