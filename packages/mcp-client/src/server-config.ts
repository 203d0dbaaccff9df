import { ToolgateError } from '@toolgate/core';
import { limitsProblem, type McpLimits } from './limits.js';

/** A log message a server sent (`notifications/message`), as handed to `onLog`. */
export interface ServerLogEntry {
  /** The server's name. */
  server: string;
  /** The level the server gave, e.g. `info`, `error`. */
  level: string;
  /** The logger name the server gave, if any. */
  logger?: string;
  /** What the server logged. */
  data: unknown;
  /** How many notifications from this server were dropped (over the rate limit) since the previous entry was handed over. */
  dropped: number;
}

/** Settings every MCP server takes, whatever its transport. */
interface ServerConfigBase {
  /** The name errors and change reports use, e.g. `oracle`. Unique within a resolver. */
  name: string;
  /** When set, the server's tools are served as `prefix__name`. */
  prefix?: string;
  /** How long a call (and the handshake) may take before it fails with TIMEOUT. Default 60,000 ms. */
  timeoutMs?: number;
  /** What this server may make the client hold or read; each unset limit takes its default (see `defaultLimits`). */
  limits?: McpLimits;
  /** Receives the server's log messages, at most `limits.maxNotificationsPerSecond` a second (with its other notifications); the rest are dropped and counted. */
  onLog?: (entry: ServerLogEntry) => void;
}

/** An MCP server the client starts as a child process and talks to over stdio. */
export interface StdioServerConfig extends ServerConfigBase {
  /** The executable. Spawn `process.execPath` with a script rather than a wrapper like `npx`. */
  command: string;
  /** The arguments, passed as they are (no shell). */
  args?: readonly string[];
  /** Variables for the child, on top of the SDK's safe defaults (HOME, PATH, …); nothing else is inherited. */
  env?: Record<string, string>;
  /** The child's working directory. Default: this process's. */
  cwd?: string;
  /** Receives the child's stderr, which is otherwise kept (its last 2,000 characters) for error messages. */
  onStderr?: (text: string) => void;
}

/** An MCP server reached over streamable HTTP. */
export interface HttpServerConfig extends ServerConfigBase {
  /** The MCP endpoint, e.g. `http://127.0.0.1:8931/mcp`. */
  url: string | URL;
  /** Headers sent with every request, e.g. `{ Authorization: 'Bearer …' }`. */
  headers?: Record<string, string>;
}

/** How to reach one MCP server. */
export type McpServerConfig = StdioServerConfig | HttpServerConfig;

/** True when the config starts a child process. */
export function isStdioConfig(config: McpServerConfig): config is StdioServerConfig {
  return 'command' in config;
}

const prefixPattern = /^[a-zA-Z0-9_.-]{1,32}$/;

/** Checks a server config, so a bad one fails before anything is spawned or fetched. */
export function checkServerConfig(config: McpServerConfig): void {
  const fail = (why: string) => {
    throw new ToolgateError('INVALID_DEFINITION', `MCP server ${JSON.stringify(config.name)}: ${why}`);
  };
  if (typeof config.name !== 'string' || config.name.trim() === '')
    fail('give the server a non-empty "name"');
  if (config.prefix !== undefined && !prefixPattern.test(config.prefix)) {
    fail(`prefix ${JSON.stringify(config.prefix)} must be 1–32 letters, digits, "_", "." or "-"`);
  }
  if (config.timeoutMs !== undefined && !(Number.isFinite(config.timeoutMs) && config.timeoutMs > 0)) {
    fail(`timeoutMs must be a positive number of milliseconds, not ${config.timeoutMs}`);
  }
  const badLimits = limitsProblem(config.limits);
  if (badLimits !== undefined) fail(badLimits);
  if (isStdioConfig(config)) {
    if (typeof config.command !== 'string' || config.command === '')
      fail('"command" must be a non-empty string');
  } else {
    try {
      const url = new URL(config.url);
      if (url.protocol !== 'http:' && url.protocol !== 'https:')
        fail(`url must be http or https, not ${url.protocol}`);
    } catch (error) {
      if (ToolgateError.is(error)) throw error;
      fail(`url ${JSON.stringify(String(config.url))} is not a URL`);
    }
  }
}
