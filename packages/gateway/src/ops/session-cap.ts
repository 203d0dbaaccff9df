import type { ServerResponse } from 'node:http';
import { sendJsonRpcError } from '@toolgate/mcp-server';
import type { Gateway } from '../gateway.js';

/** How many open sessions each client holds. */
export function sessionsByClient(sessions: ReadonlyMap<string, { client: string }>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { client } of sessions.values()) counts.set(client, (counts.get(client) ?? 0) + 1);
  return counts;
}

/**
 * Refuses a new session of a client that holds its limit: 429, with a `Retry-After` and a message
 * naming the config entry that sets the limit and how to free one.
 */
export function refuseSession(
  response: ServerResponse,
  gateway: Gateway,
  client: string,
  limit: number,
): void {
  gateway.metrics.sessionRefused(client); // counted, not recorded: a flood of them must not fill the ledger
  response.setHeader('Retry-After', '30');
  sendJsonRpcError(
    response,
    429,
    -32000,
    `client "${client}" already holds ${limit} open sessions, the most the gateway allows one client ` +
      `(http.max_sessions_per_client in ${gateway.config.source}); close one (DELETE with its mcp-session-id) ` +
      'or wait for an idle one to expire (http.session_idle_ms), then initialize again',
  );
}
