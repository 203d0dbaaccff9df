#!/usr/bin/env node
/**
 * `toolgate-gateway`: serves upstream MCP servers to MCP clients through grants, policy and a
 * ledger, on stdio or streamable HTTP; `approve` approves a changed upstream tool; `remembered`
 * lists and forgets the answers its clients' users gave for always or for a session.
 *
 * @module
 */
import { messageOf, ToolgateError } from '@toolgate/core';
import { serveStdioEras } from '@toolgate/mcp-server';
import { approveTool } from './approve.js';
import { forgetSessionAnswers } from './asking/index.js';
import { runRememberedCommand } from './asking/remembered-cli.js';
import { parseGatewayArgs, usage } from './cli-options.js';
import { loadConfig } from './config-load.js';
import { runFleetCommand } from './fleet/fleet-cli.js';
import { Gateway } from './gateway.js';
import { checkGatewayProcess } from './gateway-process.js';
import { describePending, pendingChanges } from './lock/review.js';
import { gatewayModernStdioServer } from './modern/index.js';
import { packageVersion } from './package-version.js';
import { serveGatewayHttp } from './serve-http.js';
import { createSessionServer } from './session-server.js';
import { loadServableConfig, type ServeMode } from './start-checks.js';
import { refuseStdioClient } from './start-refusal.js';

const log = (line: string) => process.stderr.write(`toolgate-gateway: ${line}\n`);
/** True once the command line asks to serve a stdio client: a failed start then answers its initialize. */
let answersStdioClient = false;

async function main(): Promise<void> {
  // approvals and answer: the fleet's operator approvals (fleet/fleet-cli.ts)
  if (await runFleetCommand(process.argv.slice(2), process.env, (text) => process.stdout.write(text))) return;
  // remembered: the answers kept for always and for a session, and forgetting them
  if (await runRememberedCommand(process.argv.slice(2), process.env, (text) => process.stdout.write(text)))
    return;
  const command = parseGatewayArgs(process.argv.slice(2), process.env);
  if (command.command === 'help') {
    process.stdout.write(usage);
    return;
  }
  if (command.command === 'version') {
    process.stdout.write(`toolgate-gateway ${packageVersion}\n`);
    return;
  }
  if (command.command === 'review') {
    const config = await loadConfig(command.config);
    const pending = await pendingChanges(config);
    process.stdout.write(
      pending.length === 0
        ? `no tool change awaits review in ${config.source}\n`
        : `${pending.map((change) => describePending(change, config.source)).join('\n\n')}\n`,
    );
    return;
  }
  if (command.command === 'approve') {
    const config = await loadConfig(command.config);
    // checked before the config is written: a bad pid changes nothing
    if (command.pid !== undefined) await checkGatewayProcess(command.pid);
    const print = await approveTool(config, command.tool, command.fingerprint);
    if (command.pid !== undefined) process.kill(command.pid, 'SIGHUP');
    process.stdout.write(
      `approved ${command.tool} (fingerprint ${print}) in ${config.source}` +
        (config.fleet !== undefined
          ? `; shared with the fleet ${config.fleet.label}: every instance applies it now\n`
          : command.pid === undefined
            ? '; send the running gateway SIGHUP to apply it\n'
            : `; sent SIGHUP to ${command.pid}\n`),
    );
    return;
  }
  answersStdioClient = command.transport === 'stdio';
  const mode: ServeMode = { transport: command.transport, env: process.env };
  const config = await loadServableConfig(command.config, mode);
  // An upstream's fault must never end the gateway: anything that escapes is logged, not fatal.
  process.on('unhandledRejection', (reason) => log(`unexpected: ${messageOf(reason)}`));
  const gateway = await Gateway.start(config, { log }).catch((error: unknown) => {
    throw Object.assign(new Error(messageOf(error)), { exitCode: 1 });
  });
  let reloading = Promise.resolve();
  process.on('SIGHUP', () => {
    reloading = reloading.then(async () => {
      // answers given for a session were given under the config before: asked again after a reload
      await forgetSessionAnswers(gateway, 'the gateway was reloaded (SIGHUP)').catch((error: unknown) =>
        log(`could not record the session answers forgotten: ${messageOf(error)}`),
      );
      try {
        // every check of the start, on the config as it is now
        const servingStdio = config.stdioClient;
        const next = await loadServableConfig(command.config, {
          ...mode,
          ...(servingStdio === undefined || mode.transport !== 'stdio' ? {} : { servingStdio }),
        });
        await gateway.reload(next);
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
    const endpoint = await serveStdioEras({
      legacy: () => createSessionServer(gateway, config.stdioClient!),
      modern: await gatewayModernStdioServer(gateway, config.stdioClient!, process.env),
      onerror: (error) => log(error.message),
    });
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

main().catch(async (error: unknown) => {
  const exitCode = (error as { exitCode?: number }).exitCode ?? (ToolgateError.is(error) ? 2 : 1);
  process.stderr.write(`toolgate-gateway: ${messageOf(error)}\n`);
  // the client that started this gateway shows its initialize's error, not "Connection closed"
  if (answersStdioClient && !process.stdin.isTTY) await refuseStdioClient(messageOf(error));
  process.exit(exitCode);
});
