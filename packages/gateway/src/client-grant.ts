import { type Grant, patternGrant, ToolgateError } from '@toolgate/core';
import type { GatewayConfig } from './config-types.js';

/**
 * A client's tool grant (its `tools` patterns) whose refusal names the gateway's fix: the
 * `clients.<name>.tools` entry of the config file and a reload, not an agent manifest.
 */
export function clientGrant(config: GatewayConfig, name: string): Grant {
  const client = config.clients.get(name);
  const patterns = client?.tools ?? [];
  const grant = patternGrant(name, patterns, { client: name });
  const granted =
    patterns.length === 0 ? 'none' : patterns.map((pattern) => JSON.stringify(pattern)).join(', ');
  return {
    ...grant,
    refusal: (tool) =>
      new ToolgateError(
        'CAPABILITY_VIOLATION',
        client === undefined
          ? `"${name}" is not a client of ${config.source}, so it is granted no tool; add it under clients: with the tools it may call`
          : `client "${name}" is not granted tool ${JSON.stringify(tool)} (clients.${name}.tools in ${config.source}: ${granted}); ` +
              `add a pattern matching it to clients.${name}.tools and reload the gateway (SIGHUP)`,
      ),
  };
}

/** Every client's grant of a config, by client name. */
export function clientGrants(config: GatewayConfig): Map<string, Grant> {
  return new Map([...config.clients.keys()].map((name) => [name, clientGrant(config, name)]));
}
