import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolgateError } from '@toolgate/core';
import { ModernEraRefused } from '@toolgate/mcp-client/internal';
import { UpstreamTokenError } from './auth/upstream-fetch.js';
import type { GatewayConfig } from './config-types.js';

/**
 * An upstream's failure to start, told with the gateway's fix: which `servers.<name>` entry of the
 * config to check, and what it must be (an MCP server answering `initialize`), rather than only the
 * transport's words (`write EPIPE`, `Connection closed`). An HTTP upstream that refused the
 * gateway's credentials (401, 403) is told to be given the ones it takes; a failure to get it an
 * access token is left as it is, for its message names the `oauth` key to check already. An
 * upstream that does not offer the MCP revision its `protocol` demands is told which key that is.
 */
export function startFailure(config: GatewayConfig, error: unknown): unknown {
  if (!ToolgateError.is(error) || !/failed during starting it|did not answer starting it/.test(error.message))
    return error;
  const name = /MCP server "([^"]+)"/.exec(error.message)?.[1];
  const server = config.servers.find((candidate) => candidate.name === name);
  if (server === undefined) return error;
  if (causesOf(error).some((cause) => cause instanceof ModernEraRefused)) {
    return new ToolgateError(
      error.code,
      // the resolver's words already say what to set; the gateway adds where
      `${error.message} (servers.${server.name}.protocol in ${config.source})`,
      { cause: error },
    );
  }
  let what: string;
  if ('command' in server) {
    what = `"${[server.command, ...(server.args ?? [])].join(' ')}" must run an MCP server that answers initialize on its stdout`;
  } else {
    const causes = causesOf(error);
    if (causes.some((cause) => cause instanceof UpstreamTokenError)) return error;
    const status = causes.find((cause) => cause instanceof StreamableHTTPError)?.code;
    // the gateway gives an HTTP upstream a fetch of its own only for its oauth section
    const credentials =
      server.fetch === undefined
        ? 'give the entry the credentials the upstream takes (oauth, or an Authorization header in headers)'
        : "check its oauth's scope and resource: the access token is not one the upstream takes";
    what =
      status === 401 || status === 403
        ? `${server.url} refused the gateway (HTTP ${status}); ${credentials}`
        : `${server.url} must be an MCP server's streamable HTTP endpoint`;
  }
  return new ToolgateError(
    error.code,
    `${error.message}. Check servers.${server.name} in ${config.source}: ${what}`,
    { cause: error },
  );
}

/** `error` and its chain of causes, outermost first. */
function causesOf(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let cause = error; cause !== undefined && !chain.includes(cause); ) {
    chain.push(cause);
    cause = cause instanceof Error ? cause.cause : undefined;
  }
  return chain;
}
