import { ToolgateError } from '@toolgate/core';
import { loadConfig } from './config-load.js';
import type { GatewayConfig } from './config-types.js';
import { checkTokens } from './serve-http.js';

/** How a `toolgate-gateway` process serves its clients: the checks a config must pass depend on it. */
export interface ServeMode {
  readonly transport: 'stdio' | 'http';
  /** Where the clients' tokens are read from (each client's `token_env`). */
  readonly env: NodeJS.ProcessEnv;
  /**
   * The stdio client a running process already serves (on reload): a config that names another is
   * refused, since the connection on stdin cannot change hands.
   */
  readonly servingStdio?: string;
}

/**
 * Every check a configuration must pass before a gateway serves it, beyond what `loadConfig` checks:
 * a stdio connection needs the client it is (`stdio:`); HTTP needs every `token_env` set, 16
 * characters or more, and no two clients with one token. The same function guards the start and
 * every SIGHUP reload, so a config refused at start is refused at reload too.
 */
export function checkServable(config: GatewayConfig, mode: ServeMode): void {
  if (mode.transport === 'stdio') {
    if (config.stdioClient === undefined) {
      throw new ToolgateError(
        'INVALID_DEFINITION',
        `${config.source}: stdio: name the client a stdio connection is, with "stdio: <client>"`,
      );
    }
    if (mode.servingStdio !== undefined && config.stdioClient !== mode.servingStdio) {
      throw new ToolgateError(
        'INVALID_DEFINITION',
        `${config.source}: stdio: the stdio connection is client "${mode.servingStdio}", not "${config.stdioClient}"; restart the gateway to serve another client on stdio`,
      );
    }
  }
  if (mode.transport === 'http') checkTokens(config, mode.env);
}

/**
 * Reads the config file and runs every check a serving gateway needs ({@link checkServable}): what
 * `toolgate-gateway` does at start and on each SIGHUP.
 *
 * @example
 * const config = await loadServableConfig('gateway.yaml', { transport: 'http', env: process.env });
 */
export async function loadServableConfig(path: string, mode: ServeMode): Promise<GatewayConfig> {
  const config = await loadConfig(path, mode.env);
  checkServable(config, mode);
  return config;
}
