#!/usr/bin/env node
/**
 * `toolgate-gateway`: serves upstream MCP servers to MCP clients through grants, policy and a
 * ledger, on stdio or streamable HTTP; `approve` approves a changed upstream tool.
 *
 * @module
 */
import { ToolgateError } from '@toolgate/core';
import { messageOf } from '@toolgate/core/internal';
import { serveStdio } from '@toolgate/mcp-server';
import { approveTool } from './approve.js';
import { parseGatewayArgs, usage } from './cli-options.js';
import { loadConfig } from './config-load.js';
import { Gateway } from './gateway.js';
import { checkTokens, serveGatewayHttp } from './serve-http.js';
import { createSessionServer } from './session-server.js';

const log = (line: string) => process.stderr.write(`toolgate-gateway: ${line}\n`);

async function main(): Promise<void> {
  const command = parseGatewayArgs(process.argv.slice(2), process.env);
  if (command.command === 'help') {
    process.stdout.write(usage);
    return;
  }
  const config = await loadConfig(command.config);
  if (command.command === 'approve') {
    const print = await approveTool(config, command.tool);
    if (command.pid !== undefined) process.kill(command.pid, 'SIGHUP');
    process.stdout.write(
      `approved ${command.tool} (fingerprint ${print}) in ${config.source}` +
        (command.pid === undefined
          ? '; send the running gateway SIGHUP to apply it\n'
          : `; sent SIGHUP to ${command.pid}\n`),
    );
    return;
  }
  if (command.transport === 'stdio' && config.stdioClient === undefined) {
    throw new ToolgateError(
      'INVALID_DEFINITION',
      `${config.source}: name the client a stdio connection is, with "stdio: <client>"`,
    );
  }
  if (command.transport === 'http') checkTokens(config, process.env);
  // An upstream's fault must never end the gateway: anything that escapes is logged, not fatal.
  process.on('unhandledRejection', (reason) => log(`unexpected: ${messageOf(reason)}`));
  const gateway = await Gateway.start(config, { log }).catch((error: unknown) => {
    throw Object.assign(new Error(messageOf(error)), { exitCode: 1 });
  });
  let reloading = Promise.resolve();
  process.on('SIGHUP', () => {
    reloading = reloading.then(async () => {
      try {
        await gateway.reload(await loadConfig(command.config));
      } catch (error) {
        log(`reload refused, the old config is kept: ${messageOf(error)}`);
      }
    });
  });
  let _stopping: Promise<void> | undefined;
  const stop = (close: () => Promise<void>) => {
    _stopping ??= close()
      .then(() => gateway.close())
      .then(() => process.exit(0));
  };
  if (command.transport === 'stdio') {
    const endpoint = await serveStdio(createSessionServer(gateway, config.stdioClient!));
    void gateway.note('client.connected', { client: config.stdioClient!, transport: 'stdio' });
    process.once('SIGTERM', () => stop(endpoint.close));
    process.once('SIGINT', () => stop(endpoint.close));
    await endpoint.closed;
    stop(async () => undefined);
    return;
  }
  const endpoint = await serveGatewayHttp(gateway, {
    ...config.http,
    ...(command.port === undefined ? {} : { port: command.port }),
  }).catch(async (error: unknown) => {
    await gateway.close();
    throw error;
  });
  process.once('SIGTERM', () => stop(endpoint.close));
  process.once('SIGINT', () => stop(endpoint.close));
  log(`listening on ${endpoint.url}`);
}

main().catch((error: unknown) => {
  const exitCode = (error as { exitCode?: number }).exitCode ?? (ToolgateError.is(error) ? 2 : 1);
  process.stderr.write(`toolgate-gateway: ${messageOf(error)}\n`);
  process.exit(exitCode);
});
