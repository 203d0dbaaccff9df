#!/usr/bin/env node
/**
 * `toolgate-mcp`: serves toolgate tools over MCP, on stdio (default) or streamable HTTP. Each
 * transport's code is loaded only when it is used, so a stdio server starts fast.
 *
 * @module
 */
import { messageOf } from '@toolgate/core';
import { parseCliOptions, usage } from './cli-options.js';
import { createMcpServer } from './create-server.js';
import { registryFor } from './registry-for.js';

async function main(): Promise<void> {
  const options = parseCliOptions(process.argv.slice(2));
  if (options.help) {
    process.stdout.write(usage);
    return;
  }
  const registry = await registryFor(options.tools, { root: options.root, sandbox: options.sandbox });
  const create = () => createMcpServer(registry, { tools: options.tools });
  if (options.transport === 'stdio') {
    const { serveStdio } = await import('./serve-stdio.js');
    const endpoint = await serveStdio(create());
    process.once('SIGTERM', () => void endpoint.close());
    process.once('SIGINT', () => void endpoint.close());
    await endpoint.closed;
    process.exit(0);
  }
  const { serveHttp } = await import('./serve-http.js');
  const endpoint = await serveHttp(create, {
    host: options.host,
    port: options.port,
    maxBodyBytes: options.maxBodyBytes,
    ...(options.token === undefined ? {} : { token: options.token }),
    ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}),
    ...(options.allowedOrigins ? { allowedOrigins: options.allowedOrigins } : {}),
  });
  const stop = () => void endpoint.close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  process.stderr.write(`toolgate-mcp listening on ${endpoint.url}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`toolgate-mcp: ${messageOf(error)}\n`);
  process.exit(2);
});
