#!/usr/bin/env node
/**
 * `toolgate-mcp`: serves toolgate tools over MCP, on stdio (default) or streamable HTTP. Each
 * transport's code is loaded only when it is used, so a stdio server starts fast.
 *
 * @module
 */
import { messageOf, type RulePolicy, ToolgateError } from '@toolgate/core';
import { parseCliOptions, usage } from './cli-options.js';
import { createMcpServer, exposingGate } from './create-server.js';
import { defaultAllowedHosts, isLoopback, isWildcard } from './http-guard.js';
import { packageVersion } from './package-version.js';
import { registryFor } from './registry-for.js';
import { startServerTelemetry } from './telemetry.js';

async function main(): Promise<void> {
  const options = parseCliOptions(process.argv.slice(2));
  if (options.help) {
    process.stdout.write(usage);
    return;
  }
  if (options.version) {
    process.stdout.write(`toolgate-mcp ${packageVersion}\n`);
    return;
  }
  const registry = await registryFor(options.tools, { root: options.root, sandbox: options.sandbox });
  const policy = options.policy.length === 0 ? undefined : await policyOf(options.policy);
  // one gate for the process: every call of every connection (or stateless request) runs through it.
  // Outputs pass through whole (the built-in tools' field limits bound each one): the caller's own
  // gate caps them, once, at its limits — a cap here would cut below a caller that allows more.
  // spans over OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT is set (the SDK is loaded only then)
  const telemetry = await startServerTelemetry();
  const gate = exposingGate(registry, {
    limits: { outputChars: Number.POSITIVE_INFINITY, contentBytes: Number.POSITIVE_INFINITY },
    observer: telemetry?.observer,
    policy,
  });
  const flushed = () => telemetry?.shutdown().catch(() => {}); // an unreachable collector never blocks an exit
  const create = () => createMcpServer(gate, { tools: options.tools });
  if (options.transport === 'stdio') {
    // 2025-11-25 and 2026-07-28 clients alike: the connection's opening chooses the era
    const { serveStdioEras } = await import('./modern/stdio-eras.js');
    const { createModernMcpServer } = await import('./modern/create-server.js');
    const endpoint = await serveStdioEras({
      legacy: create,
      modern: () => createModernMcpServer(gate, { tools: options.tools }),
      onerror: (error) => process.stderr.write(`toolgate-mcp: ${error.message}\n`),
    });
    process.once('SIGTERM', () => void endpoint.close());
    process.once('SIGINT', () => void endpoint.close());
    await endpoint.closed;
    await flushed();
    process.exit(0);
  }
  const { serveHttp } = await import('./serve-http.js');
  const { modernHandler } = await import('./modern/modern-handler.js');
  const modern = await modernHandler(gate, { tools: options.tools });
  if (options.noAuth && !isLoopback(options.host)) {
    process.stderr.write(
      `toolgate-mcp: warning: --no-auth: serving ${options.tools.join(', ')} on ${options.host} without a token; ` +
        'anyone who can reach the port can call them\n',
    );
  }
  const endpoint = await serveHttp(create, {
    host: options.host,
    port: options.port,
    maxBodyBytes: options.maxBodyBytes,
    allowUnauthenticated: options.noAuth,
    modern,
    ...(options.token === undefined ? {} : { token: options.token }),
    ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}),
    ...(options.allowedOrigins ? { allowedOrigins: options.allowedOrigins } : {}),
  }).catch((error: unknown) => {
    throw bindError(error, options.host, options.port);
  });
  const stop = () =>
    void endpoint
      .close()
      .then(flushed)
      .then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  // One write, so a reader that waits for "listening on" has the Host line too.
  process.stderr.write(
    `toolgate-mcp listening on ${endpoint.url}\n${acceptedHosts(options.host, endpoint.url)}`,
  );
}

/** The layered policy of the `--policy` files (the loader `toolgate policy check` uses), its errors naming the flag. */
async function policyOf(files: readonly string[]): Promise<RulePolicy> {
  const { loadPolicyFiles } = await import('@toolgate/policy-cli'); // only when --policy is given
  try {
    return loadPolicyFiles(files).policy;
  } catch (error) {
    throw new ToolgateError('INVALID_DEFINITION', `--policy: ${messageOf(error)}`, { cause: error });
  }
}

/** For a wildcard bind, the line that lists the Host values answered, and how to add a name. */
function acceptedHosts(host: string, url: string): string {
  if (!isWildcard(host)) return '';
  const port = Number(new URL(url).port);
  return (
    `toolgate-mcp: accepting Host ${defaultAllowedHosts(host, port).join(', ')}; ` +
    `for a name, add it: --allowed-hosts myhost.example:${port}\n`
  );
}

/** Says which option a failed bind comes from: the --host (no such address) or the --port (taken). */
function bindError(error: unknown, host: string, port: number): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') {
    return new ToolgateError(
      'INVALID_DEFINITION',
      `--host ${host}: no such address or host name (${code}); give an address of this machine, such as 127.0.0.1 or 0.0.0.0`,
      { cause: error },
    );
  }
  if (code === 'EADDRNOTAVAIL') {
    return new ToolgateError(
      'INVALID_DEFINITION',
      `--host ${host} is not an address of this machine (EADDRNOTAVAIL); give one of its addresses, such as 127.0.0.1 or 0.0.0.0`,
      { cause: error },
    );
  }
  if (code === 'EADDRINUSE') {
    return new ToolgateError(
      'INVALID_DEFINITION',
      `--port ${port} is already in use on ${host} (EADDRINUSE); pick another port, or 0 for any free one`,
      { cause: error },
    );
  }
  if (code === 'EACCES') {
    return new ToolgateError(
      'INVALID_DEFINITION',
      `--port ${port} on ${host} is not permitted (EACCES): ports below 1024 need privileges; pick 1024 or above, or 0`,
      { cause: error },
    );
  }
  return error;
}

main().catch((error: unknown) => {
  process.stderr.write(`toolgate-mcp: ${messageOf(error)}\n`);
  process.exit(2);
});
