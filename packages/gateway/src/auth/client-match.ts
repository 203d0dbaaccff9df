import type { GatewayClient, GatewayConfig } from '../config-types.js';
import type { CallerIdentity } from './access-token.js';
import type { ClientMatch } from './oauth-schema.js';

/**
 * The client of the config a verified token's caller is: the first, in the file's order, whose
 * `match` holds of it — a `sub` listed, a `client_id` (or `azp`) listed, one of the `groups`
 * listed, every one of the `scopes` listed, for each key given. Undefined when none does.
 */
export function matchClient(config: GatewayConfig, identity: CallerIdentity): GatewayClient | undefined {
  for (const client of config.clients.values()) {
    if (client.match !== undefined && matches(client.match, identity)) return client;
  }
  return undefined;
}

function matches(match: ClientMatch, identity: CallerIdentity): boolean {
  if (match.sub !== undefined && !match.sub.includes(identity.subject)) return false;
  if (
    match.clientId !== undefined &&
    (identity.clientId === undefined || !match.clientId.includes(identity.clientId))
  ) {
    return false;
  }
  if (match.groups !== undefined && !match.groups.some((group) => identity.groups.includes(group)))
    return false;
  if (match.scopes !== undefined && !match.scopes.every((scope) => identity.scopes.includes(scope)))
    return false;
  return true;
}
