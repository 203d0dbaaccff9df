import { z } from 'zod';
import { defaultLimits } from './limits.js';
import { mcpProtocols } from './server-config.js';

const nonEmpty = z.string().min(1, 'must not be empty');
const parameterNames = z.array(nonEmpty);

/** Which parameters of one remote tool name what it touches (a {@link SubjectMapping}). */
export const subjectMappingSchema = z.strictObject({
  paths: parameterNames.optional(),
  commands: parameterNames.optional(),
  urls: parameterNames.optional(),
});

const positiveInteger = z.number().int().positive();

/** The {@link WireLimits} a server config may set, each a positive integer; unknown limits refused. */
export const wireLimitsSchema = z.strictObject(
  Object.fromEntries(Object.keys(defaultLimits).map((key) => [key, positiveInteger.optional()])) as Record<
    keyof typeof defaultLimits,
    z.ZodOptional<typeof positiveInteger>
  >,
);

/** The settings every server takes, whatever its transport (the data of them: callbacks are left to code). */
const commonFields = {
  name: nonEmpty,
  prefix: z
    .string()
    .regex(/^[a-zA-Z0-9_.-]{1,32}$/, 'must be 1–32 letters, digits, "_", "." or "-"')
    .optional(),
  timeoutMs: z.number().positive().optional(),
  root: nonEmpty.optional(),
  subjects: z.union([z.literal('toolgate'), z.record(z.string(), subjectMappingSchema)]).optional(),
  limits: wireLimitsSchema.optional(),
  protocol: z.enum(mcpProtocols).optional(),
};

/**
 * An MCP server the client starts over stdio, as data (a {@link StdioServerConfig} without its
 * callbacks), for a config file of servers: `command` and its `args`, `env`, `cwd`, and the common
 * settings (`name`, `prefix`, `timeoutMs`, `root`, `subjects`, `limits`, `protocol`).
 *
 * @example
 * const config: StdioServerConfig = stdioServerConfigSchema.parse(JSON.parse(text));
 */
export const stdioServerConfigSchema = z.strictObject({
  ...commonFields,
  command: nonEmpty,
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  cwd: nonEmpty.optional(),
});

/** An MCP server reached over streamable HTTP, as data (an {@link HttpServerConfig} without its callbacks): `url`, `headers` and the common settings. */
export const httpServerConfigSchema = z.strictObject({
  ...commonFields,
  url: z.union([nonEmpty, z.instanceof(URL)]),
  headers: z.record(z.string(), z.string()).optional(),
});

/**
 * How to reach one MCP server, as data: the shape `MCPResolver` takes ({@link McpServerConfig}),
 * callbacks left out. A config file of servers reads with it; `MCPResolver.attach` still checks
 * what only this machine can (the root exists, a `toolgate-mcp` root is the declared one, the URL).
 */
export const mcpServerConfigSchema = z.union([stdioServerConfigSchema, httpServerConfigSchema]);
