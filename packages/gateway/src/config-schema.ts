import { policyDocumentSchema } from '@toolgate/core/internal';
import { httpServerConfigSchema, stdioServerConfigSchema } from '@toolgate/mcp-client';
import { z } from 'zod';
import { clientMatchSchema, oauthSchema } from './auth/oauth-schema.js';
import { upstreamOAuthSchema } from './auth/upstream-oauth-schema.js';
import { policyLayerSchema } from './config-policy-layers.js';
import { fleetSchema } from './fleet/fleet-config.js';
import { rateLimitSchema } from './limits/rate-limiter.js';
import { telemetrySchema } from './telemetry/telemetry-config.js';

const nonEmpty = z.string().min(1, 'must not be empty');
const names = z.array(nonEmpty);

// mcp-client's one schema of a server config, its keys in the gateway's words (`timeout_ms`)
const stdio = stdioServerConfigSchema.shape;
const http = httpServerConfigSchema.shape;

/** One upstream MCP server in the gateway's YAML: `command` (stdio) or `url` (streamable HTTP), as `MCPResolver` takes it. */
export const upstreamSchema = z
  .strictObject({
    command: stdio.command.optional(),
    args: stdio.args,
    env: stdio.env,
    cwd: stdio.cwd,
    // text only: the gateway expands `${VAR}` in it before `MCPResolver` reads it as a URL
    url: nonEmpty.optional(),
    headers: http.headers,
    // the upstream's access tokens, obtained by the gateway (client credentials)
    oauth: upstreamOAuthSchema.optional(),
    prefix: stdio.prefix,
    timeout_ms: stdio.timeoutMs,
    root: stdio.root,
    subjects: stdio.subjects,
    // the MCP revision spoken with it: default 2025-11-25 over stdio, negotiated (auto) over HTTP
    protocol: stdio.protocol,
  })
  .refine((server) => (server.command === undefined) !== (server.url === undefined), {
    message: 'give exactly one of "command" (a stdio server) or "url" (a streamable HTTP server)',
  })
  .refine((server) => server.oauth === undefined || server.url !== undefined, {
    message: 'oauth is for a streamable HTTP server (url); a stdio server is given its secrets in env',
  });

/** One client in the gateway's YAML: its grants (glob patterns of tool and prompt names, resource URIs) and, over HTTP, its token. */
export const clientSchema = z.strictObject({
  token_env: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be the name of an environment variable')
    .optional(),
  tools: z.array(nonEmpty).min(1, 'grant at least one tool pattern'),
  // over HTTP with oauth: the access tokens this client is (their sub, client_id, groups, scopes)
  match: clientMatchSchema.optional(),
  // calls a second and calls at once; past them a call is refused RATE_LIMITED
  rate_limit: rateLimitSchema.optional(),
  // whether an upstream may ask this client's user (during this client's call): default elicitation
  // and roots allow, sampling deny (it spends the client's model)
  elicitation: z.enum(['allow', 'deny']).optional(),
  sampling: z.enum(['allow', 'deny']).optional(),
  roots: z.enum(['allow', 'deny']).optional(),
  // glob patterns of prompt names (`prefix__name`, as tools)
  prompts: names.optional(),
  // "<prefix>:<uri glob>": the resources of the upstream with that prefix (or name) whose URI matches
  resources: z
    .array(
      z
        .string()
        .regex(
          /^[a-zA-Z0-9_.-]{1,64}:.+$/,
          'must be "<prefix>:<uri glob>", the prefix (or name) of an upstream, then a glob of URIs, e.g. "ev:demo://resource/static/**"',
        ),
    )
    .optional(),
});

/** The gateway's YAML configuration file, as zod checks it. Unknown keys are refused everywhere. */
export const gatewayConfigSchema = z.strictObject({
  servers: z
    .record(
      z.string().regex(/^[a-zA-Z0-9_.-]{1,64}$/, 'must be 1–64 letters, digits, "_", "." or "-"'),
      upstreamSchema,
    )
    .refine((servers) => Object.keys(servers).length > 0, 'name at least one upstream server'),
  clients: z
    .record(
      z.string().regex(/^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,63}$/, 'must be 1–64 letters, digits, "_", "." or "-"'),
      clientSchema,
    )
    .refine((clients) => Object.keys(clients).length > 0, 'name at least one client'),
  stdio: nonEmpty.optional(),
  http: z
    .strictObject({
      host: nonEmpty.optional(),
      port: z.number().int().min(0).max(65535).optional(),
      path: z.string().startsWith('/').optional(),
      allowed_hosts: names.optional(),
      allowed_origins: names.optional(),
      // how many sessions one client may hold open at once, and how long one may sit idle
      max_sessions_per_client: z.number().int().min(1).optional(),
      session_idle_ms: z.number().int().min(1000).optional(),
    })
    .optional(),
  // the gateway as an OAuth 2.1 resource server: the issuer whose JWT access tokens it takes
  oauth: oauthSchema.optional(),
  // a policy file's path, or the policy written inline: core's one schema for a policy document;
  // or a list of named layers (files or inline), most authoritative first
  policy: z.union([nonEmpty, policyDocumentSchema, z.array(policyLayerSchema).min(1)]).optional(),
  ledger: nonEmpty,
  durability: z.enum(['always', 'batch', 'none']).optional(),
  approve: z.record(z.string(), nonEmpty).optional(),
  // with a lock file beside the config: a tool no review names is withheld (default) or allowed
  new_tools: z.enum(['withhold', 'allow']).optional(),
  timeout_ms: z.number().positive().optional(),
  // how long a 2026-07-28 client's call, held while its upstream asks the client, waits for the
  // client's answer (at most the requestState's life, 10 minutes)
  held_call_ms: z
    .number()
    .int({ message: 'must be a whole number of milliseconds' })
    .min(100, { message: 'must be at least 100 (ms)' })
    .max(600_000, { message: "must be at most 600000 (10 minutes, the life of the gateway's requestState)" })
    .optional(),
  // where a span per call is exported over OTLP/HTTP (see telemetry/)
  telemetry: telemetrySchema.optional(),
  // several instances sharing approvals and tool reviews in one PostgreSQL database (see fleet/)
  fleet: fleetSchema.optional(),
});

/** The configuration file as written (after validation, before `${VAR}` expansion and path resolution). */
export type GatewayConfigFile = z.output<typeof gatewayConfigSchema>;
