import { ToolgateError } from '@toolgate/core';
import type { GatewayConfig } from './config-types.js';

/**
 * Why a running gateway cannot take `next` in place of `current` — its upstream servers, its
 * `fleet:` or its ledger changed, which need a restart — or undefined when it can.
 */
export function reloadRefusal(current: GatewayConfig, next: GatewayConfig): ToolgateError | undefined {
  const refuse = (message: string) => new ToolgateError('INVALID_DEFINITION', message);
  if (JSON.stringify(next.servers) !== JSON.stringify(current.servers))
    return refuse(
      'servers changed; restart the gateway to change its upstream servers (the old config is kept)',
    );
  if (JSON.stringify(next.fleet) !== JSON.stringify(current.fleet))
    return refuse('fleet changed; restart the gateway to change it (the old config is kept)');
  if (next.ledger !== current.ledger || next.durability !== current.durability)
    return refuse('the ledger changed; restart the gateway to change it (the old config is kept)');
  return undefined;
}
