import { realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { ToolgateError } from '@toolgate/core';
import { limitsProblem, type WireLimits } from './limits.js';

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

/** The {@link McpProtocol} values, as a config names them. */
export const mcpProtocols = ['2025-11-25', '2026-07-28', 'auto'] as const;

/**
 * Which MCP revision a server is spoken to in: `'2025-11-25'`, `'2026-07-28'` (that one only), or
 * `'auto'` (2026-07-28 when the server offers it, else 2025-11-25).
 */
export type McpProtocol = (typeof mcpProtocols)[number];

/** Settings every MCP server takes, whatever its transport. */
interface ServerConfigBase {
  /** The name errors and change reports use, e.g. `oracle`. Unique within a resolver. */
  name: string;
  /** When set, the server's tools are served as `prefix__name`. */
  prefix?: string;
  /** How long a call (and the handshake) may take before it fails with TIMEOUT. Default 60,000 ms. */
  timeoutMs?: number;
  /**
   * The directory the server's paths are relative to, as this machine sees it (for `toolgate-mcp`,
   * its `--root`). Path subjects are resolved against it, through symlinks, as in-process tools
   * resolve theirs. Declared here, never taken from the server. Required for `paths` mappings.
   */
  root?: string;
  /**
   * What the server's tools touch, for policy rules on paths, commands and hosts: `'toolgate'` for
   * `toolgate-mcp` (its built-in tools get the subjects they have in-process; the file and shell
   * tools need `root`), or a {@link SubjectMapping} per tool, keyed by the server's own tool names.
   * A tool without one has an unknown subject: rules on paths, commands or hosts then apply to it
   * only if they deny.
   */
  subjects?: 'toolgate' | Readonly<Record<string, SubjectMapping>>;
  /** What this server may make the client hold or read; each unset limit takes its default (see `defaultLimits`). */
  limits?: WireLimits;
  /**
   * The MCP revision to speak with the server. `'auto'`: 2026-07-28 when the server offers it (it
   * is asked `server/discover` first; over stdio a short-lived second copy of the server is asked,
   * as the 2.x SDK does, and stopped before the session's own starts), else 2025-11-25.
   * `'2026-07-28'`: that revision only; a server that does not offer it fails the connect with
   * TRANSPORT_FAILED naming this key. `'2025-11-25'`: no probe, `initialize` at once. Default:
   * `'2025-11-25'` over stdio (every stdio server answers it, and `'auto'` costs a second start),
   * `'auto'` over HTTP (the probe is one request).
   */
  protocol?: McpProtocol;
  /** Receives the server's log messages, at most `limits.maxNotificationsPerSecond` a second (with its other notifications); the rest are dropped and counted. */
  onLog?: (entry: ServerLogEntry) => void;
  /**
   * Receives the server's `notifications/prompts/list_changed`, `notifications/resources/list_changed`
   * and `notifications/resources/updated` (rate-limited with its other notifications), for a
   * gateway that passes them on.
   */
  onNotification?: (notification: { method: string; params?: Record<string, unknown> }) => void;
  /**
   * Answers the server's own requests to its client — `elicitation/create`, `sampling/createMessage`,
   * `roots/list` — for a gateway that passes them on to a user: a 2025-11-25 server's requests, and
   * the input requests of a 2026-07-28 server's `input_required` results (the call is then sent
   * again with the answers). With it, the client declares those capabilities to the server
   * (elicitation in form mode, `applyDefaults`: an accepted answer gets the requested schema's
   * defaults for the fields it leaves out); without it, none, and an `input_required` elicitation is
   * declined.
   */
  onServerRequest?: (
    request: { method: string; params?: Record<string, unknown> },
    signal: AbortSignal,
  ) => Promise<Record<string, unknown>>;
}

/**
 * Which parameters of one remote tool name what it touches, declared by whoever configures the
 * server. A parameter may hold one string or an array of strings; a call where a named parameter is
 * missing or not text has an unknown subject.
 *
 * @example
 * const files: McpServerConfig = {
 *   name: 'files', command: process.execPath, args: [serverPath, '/srv/ws'], root: '/srv/ws',
 *   subjects: { read_file: { paths: ['path'] }, move_file: { paths: ['source', 'destination'] } },
 * };
 */
export interface SubjectMapping {
  /** Parameters holding paths, resolved against the server's `root` (through symlinks). */
  paths?: readonly string[];
  /** Parameters holding a shell command line, split into the argv of each of its commands. */
  commands?: readonly string[];
  /** Parameters holding a URL, matched by its parsed, lower-cased host. */
  urls?: readonly string[];
}

const mappingKinds = ['paths', 'commands', 'urls'] as const;

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
  /**
   * The fetch beneath the message limits (default the global `fetch`): e.g. one that adds a fresh
   * OAuth access token to each request.
   */
  fetch?: typeof fetch;
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
  const fail = (why: string): never => {
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
  if (config.protocol !== undefined && !mcpProtocols.includes(config.protocol)) {
    fail(
      `protocol must be one of ${mcpProtocols.map((value) => `'${value}'`).join(', ')}, not ${JSON.stringify(config.protocol)}`,
    );
  }
  checkSubjects(config, fail);
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

function checkSubjects(config: McpServerConfig, fail: (why: string) => never): void {
  const { root, subjects } = config;
  if (root !== undefined) {
    if (typeof root !== 'string' || root === '') fail('"root" must be a non-empty path');
    let directory = false;
    try {
      directory = statSync(root).isDirectory();
    } catch {
      // reported below
    }
    if (!directory)
      fail(
        `root ${JSON.stringify(root)} is not an existing directory on this machine; give the server's root`,
      );
  }
  if (subjects === 'toolgate' && root !== undefined && isStdioConfig(config))
    checkToolgateRoot(config, root, fail);
  if (subjects === undefined || subjects === 'toolgate') return;
  if (typeof subjects !== 'object' || subjects === null || Array.isArray(subjects))
    fail(`"subjects" must be 'toolgate' or an object of mappings per tool, not ${JSON.stringify(subjects)}`);
  for (const [tool, mapping] of Object.entries(subjects)) {
    const at = `subjects.${tool}`;
    if (typeof mapping !== 'object' || mapping === null || Array.isArray(mapping))
      fail(`${at} must be an object such as { paths: ["path"] }`);
    for (const [kind, parameters] of Object.entries(mapping)) {
      if (!(mappingKinds as readonly string[]).includes(kind))
        fail(`${at} has an unknown field "${kind}"; use ${mappingKinds.join(', ')}`);
      if (!Array.isArray(parameters) || parameters.some((name) => typeof name !== 'string' || name === ''))
        fail(`${at}.${kind} must be a list of parameter names, such as ["path"]`);
    }
    if (mapping.paths !== undefined && root === undefined)
      fail(`${at} maps paths, so the server's "root" must be given to resolve them against`);
  }
}

/** For a `toolgate-mcp` child started with `--root`, the declared root must be that directory. */
function checkToolgateRoot(config: StdioServerConfig, root: string, fail: (why: string) => never): void {
  const args = config.args ?? [];
  const index = args.findIndex((arg) => arg === '--root' || arg.startsWith('--root='));
  if (index === -1) return;
  const arg = args[index]!;
  const value = arg === '--root' ? args[index + 1] : arg.slice('--root='.length);
  if (value === undefined) return;
  const real = (path: string) => {
    try {
      return realpathSync(path);
    } catch {
      return path;
    }
  };
  const started = real(resolve(config.cwd ?? process.cwd(), value));
  if (started !== real(resolve(root))) {
    fail(
      `root ${JSON.stringify(root)} is not the directory the server is started with (--root ${JSON.stringify(value)}); ` +
        'declare the same root, or subjects would be computed against the wrong workspace',
    );
  }
}
