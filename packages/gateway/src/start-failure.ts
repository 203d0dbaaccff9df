import { ToolgateError } from '@toolgate/core';
import type { GatewayConfig } from './config-types.js';

/**
 * An upstream's failure to start, told with the gateway's fix: which `servers.<name>` entry of the
 * config to check, and what it must be (an MCP server answering `initialize`), rather than only the
 * transport's words (`write EPIPE`, `Connection closed`).
 */
export function startFailure(config: GatewayConfig, error: unknown): unknown {
  if (!ToolgateError.is(error) || !/failed during starting it|did not answer starting it/.test(error.message))
    return error;
  const name = /MCP server "([^"]+)"/.exec(error.message)?.[1];
  const server = config.servers.find((candidate) => candidate.name === name);
  if (server === undefined) return error;
  const what =
    'command' in server
      ? `"${[server.command, ...(server.args ?? [])].join(' ')}" must run an MCP server that answers initialize on its stdout`
      : `${server.url} must be an MCP server's streamable HTTP endpoint`;
  return new ToolgateError(
    error.code,
    `${error.message}. Check servers.${server.name} in ${config.source}: ${what}`,
    { cause: error },
  );
}
