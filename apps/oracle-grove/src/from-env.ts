import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ToolgateError } from '@toolgate/core';
import { MCPResolver, type MCPResolverOptions, type StdioServerConfig } from '@toolgate/mcp-client';
import { parseServerCommands } from './server-commands.js';

/**
 * The config gate. Returns undefined when tools should run in-process (the default), or a resolver
 * attached to the MCP servers the environment names: `MCP_SERVERS` (command lines separated by
 * ` :: `, see `parseServerCommands`), or `MCP_ORACLE=1` (or `true`, `yes`: see
 * {@link oracleOverMcp}) — the built-in oracle served by `toolgate-mcp --tools oracle` (ignored when
 * `MCP_SERVERS` is set). Servers named by `MCP_SERVERS` have no subject mappings: policy rules on
 * paths, commands or hosts apply to their tools only if they deny (attach them yourself with
 * `subjects` to do better). With a resolver, do not
 * register those tools in-process, so calls really cross the transport.
 *
 * @example
 * const resolver = await resolverFromEnv();
 * if (resolver) registry.setResolver(resolver);
 * else registry.register(oracleTool());
 */
export async function resolverFromEnv(
  env: NodeJS.ProcessEnv = process.env,
  options: MCPResolverOptions = {},
): Promise<MCPResolver | undefined> {
  const servers = serversFromEnv(env);
  return servers ? MCPResolver.connect(servers, options) : undefined;
}

/** The servers the environment names, or undefined for in-process; see {@link resolverFromEnv}. */
export function serversFromEnv(env: NodeJS.ProcessEnv = process.env): StdioServerConfig[] | undefined {
  const listed = env.MCP_SERVERS?.trim();
  if (listed) return parseServerCommands(listed, env);
  if (!oracleOverMcp(env.MCP_ORACLE)) return undefined;
  return [
    {
      name: 'oracle',
      command: process.execPath,
      args: [toolgateMcpPath(), '--tools', 'oracle'],
      // toolgate's own oracle: it touches nothing, as in-process, so rules on paths never catch it.
      subjects: 'toolgate',
    },
  ];
}

const truthy = ['1', 'true', 'yes'];
const falsy = ['0', 'false', 'no', ''];

/**
 * Reads `MCP_ORACLE`: `1`, `true`, `yes` (any case) turn it on; unset, empty, `0`, `false`, `no` leave
 * it off; anything else is refused, listing what is accepted.
 */
export function oracleOverMcp(value: string | undefined): boolean {
  if (value === undefined) return false;
  const word = value.trim().toLowerCase();
  if (truthy.includes(word)) return true;
  if (falsy.includes(word)) return false;
  throw new ToolgateError(
    'INVALID_DEFINITION',
    `MCP_ORACLE=${JSON.stringify(value)} is not understood; use 1, true or yes to serve the oracle over MCP, ` +
      'or 0, false, no or empty for in-process (any case)',
  );
}

/** The path of the built `toolgate-mcp` script of the installed `@toolgate/mcp-server`. */
export function toolgateMcpPath(): string {
  const require = createRequire(import.meta.url);
  let manifestPath: string;
  try {
    manifestPath = require.resolve('@toolgate/mcp-server/package.json');
  } catch {
    throw new ToolgateError(
      'INVALID_DEFINITION',
      'MCP_ORACLE=1 needs @toolgate/mcp-server, which is not installed; install it beside the demo',
    );
  }
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { bin?: Record<string, string> };
  const script = join(dirname(manifestPath), manifest.bin?.['toolgate-mcp'] ?? 'dist/cli.js');
  if (!existsSync(script)) {
    throw new ToolgateError(
      'INVALID_DEFINITION',
      `MCP_ORACLE=1 needs the built toolgate-mcp, but ${script} does not exist; ` +
        'build it with `pnpm --filter @toolgate/mcp-server... build`',
    );
  }
  return script;
}
