import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import { messageOf, type Policy, parsePolicy, parsePolicyText, ToolgateError } from '@toolgate/core';
import { formatIssuePath } from '@toolgate/core/internal';
import { isPostgresUrl } from '@toolgate/ledger-postgres';
import type { McpServerConfig } from '@toolgate/mcp-client';
import { LineCounter, parseDocument } from 'yaml';
import { clientMatch, oauthSettings } from './auth/oauth-schema.js';
import { upstreamFetch } from './auth/upstream-fetch.js';
import { checkResourceGrants, fault, issuesFault, type LineAt, policyIssues } from './config-faults.js';
import { lineOf } from './config-lines.js';
import { layeredConfigPolicy, type PolicyLayerPath, rememberingFile } from './config-policy-layers.js';
import { type GatewayConfigFile, gatewayConfigSchema } from './config-schema.js';
import type { GatewayClient, GatewayConfig } from './config-types.js';
import { fleetOf } from './fleet/fleet-config.js';
import { isLedgerDirectory } from './ledger-directory.js';
import { rateLimitOf } from './limits/rate-limiter.js';
import { telemetryOf } from './telemetry/telemetry-config.js';
import { expandVariables } from './variables.js';

/**
 * Reads and checks a gateway configuration file. Every problem is an INVALID_DEFINITION error that
 * names the file and the line: `gateway.yaml:7: clients.desktop.tools: grant at least one tool pattern`.
 *
 * @example
 * const config = await loadConfig('gateway.yaml');
 */
export async function loadConfig(path: string, env: NodeJS.ProcessEnv = process.env): Promise<GatewayConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ToolgateError(
      'INVALID_DEFINITION',
      `cannot read the gateway config ${path}: ${messageOf(error)}`,
    );
  }
  const file = await checkConfigText(text, path, env);
  return resolveConfig(file.config, path, env, file.lineAt, file.policyText);
}

interface CheckedText {
  config: GatewayConfigFile;
  lineAt: LineAt;
  /** The policy file's text; for a list of layers, each file layer's path. */
  policyText?: string | readonly PolicyLayerPath[] | undefined;
}

/** Parses and validates the YAML text, naming the line of the first problems. */
async function checkConfigText(text: string, source: string, env: NodeJS.ProcessEnv): Promise<CheckedText> {
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, prettyErrors: true, uniqueKeys: true });
  const [syntax] = document.errors;
  if (syntax) {
    const line = syntax.linePos?.[0]?.line;
    throw fault(source, line, `not valid YAML: ${syntax.message.split('\n')[0]}`);
  }
  const lineAt = (path: readonly PropertyKey[], key?: string) => lineOf(document, lines, path, key);
  const raw = document.toJS() as { policy?: unknown } | null;
  const parsed = gatewayConfigSchema.safeParse(raw);
  if (!parsed.success) throw issuesFault(source, policyIssues(parsed.error, raw?.policy), lineAt);
  const pathOf = (given: string, at: readonly PropertyKey[]) =>
    resolveFrom(
      source,
      expandVariables(given, env, (message) => fault(source, lineAt(at), message)),
    );
  const readPolicy = async (given: string, at: readonly PropertyKey[]) => {
    const path = pathOf(given, at);
    try {
      return { path, text: await readFile(path, 'utf8') };
    } catch (error) {
      throw fault(source, lineAt(at), `${formatIssuePath(at)}: cannot read ${path}: ${messageOf(error)}`);
    }
  };
  const { policy } = parsed.data;
  let policyText: CheckedText['policyText'];
  if (typeof policy === 'string') policyText = (await readPolicy(policy, ['policy'])).text;
  else if (Array.isArray(policy))
    policyText = policy.map((entry, index) =>
      'file' in entry ? pathOf(entry.file, ['policy', index, 'file']) : undefined,
    );
  return { config: parsed.data, lineAt, policyText };
}

function resolveConfig(
  file: GatewayConfigFile,
  source: string,
  env: NodeJS.ProcessEnv,
  lineAt: CheckedText['lineAt'],
  policyText: CheckedText['policyText'],
): GatewayConfig {
  const expand = (value: string, path: readonly PropertyKey[]) =>
    expandVariables(value, env, (message) =>
      fault(source, lineAt(path), `${formatIssuePath(path)}: ${message}`),
    );
  const servers: McpServerConfig[] = Object.entries(file.servers).map(([name, server]) => {
    const at = ['servers', name];
    const common = {
      name,
      ...(server.prefix === undefined ? {} : { prefix: server.prefix }),
      ...(server.timeout_ms === undefined ? {} : { timeoutMs: server.timeout_ms }),
      ...(server.root === undefined
        ? {}
        : { root: resolveFrom(source, expand(server.root, [...at, 'root'])) }),
      ...(server.subjects === undefined ? {} : { subjects: server.subjects }),
      ...(server.protocol === undefined ? {} : { protocol: server.protocol }),
    };
    if (server.url !== undefined) {
      const headers = Object.fromEntries(
        Object.entries(server.headers ?? {}).map(([key, value]) => [
          key,
          expand(value, [...at, 'headers', key]),
        ]),
      );
      const url = expand(server.url, [...at, 'url']);
      if (server.oauth === undefined) return { ...common, url, headers };
      try {
        return {
          ...common,
          url,
          headers,
          fetch: upstreamFetch({
            upstream: name,
            url,
            section: server.oauth,
            env,
            resolvePath: (path) => resolveFrom(source, path),
            fleet: file.fleet !== undefined,
          }),
        };
      } catch (error) {
        throw fault(source, lineAt([...at, 'oauth']), messageOf(error));
      }
    }
    return {
      ...common,
      command: expand(server.command ?? '', [...at, 'command']),
      args: (server.args ?? []).map((arg, index) => expand(arg, [...at, 'args', index])),
      env: Object.fromEntries(
        Object.entries(server.env ?? {}).map(([key, value]) => [key, expand(value, [...at, 'env', key])]),
      ),
      cwd: resolveFrom(source, server.cwd === undefined ? '.' : expand(server.cwd, [...at, 'cwd'])),
      onStderr: () => undefined,
    };
  });
  const clients = new Map<string, GatewayClient>(
    Object.entries(file.clients).map(([name, client]) => [
      name,
      {
        name,
        tools: client.tools,
        prompts: client.prompts ?? [],
        resources: client.resources ?? [],
        asks: {
          elicitation: client.elicitation ?? 'allow',
          sampling: client.sampling ?? 'deny',
          roots: client.roots ?? 'allow',
        },
        ...(client.token_env === undefined ? {} : { tokenEnv: client.token_env }),
        ...(client.match === undefined ? {} : { match: clientMatch(client.match) }),
        ...(client.rate_limit === undefined ? {} : { rateLimit: rateLimitOf(client.rate_limit) }),
      },
    ]),
  );
  checkResourceGrants(file, source, lineAt);
  const matched = Object.keys(file.clients).find((name) => file.clients[name]?.match !== undefined);
  if (matched !== undefined && file.oauth === undefined) {
    throw fault(
      source,
      lineAt(['clients', matched, 'match']),
      `clients.${matched}.match: there is no oauth: section, so no access token is taken; add oauth: with the issuer of the tokens`,
    );
  }
  if (file.stdio !== undefined && !clients.has(file.stdio)) {
    throw fault(
      source,
      lineAt(['stdio']),
      `stdio: no client is named ${JSON.stringify(file.stdio)}; name one of: ${[...clients.keys()].join(', ')}`,
    );
  }
  const ledger = expand(file.ledger, ['ledger']);
  if (isPostgresUrl(ledger) && !URL.canParse(ledger)) {
    // the value is not shown: it may hold a password
    throw fault(
      source,
      lineAt(['ledger']),
      'ledger: the postgres:// URL is not a valid URL; give postgres://USER@HOST:PORT/DATABASE?ledger=NAME (a password is better left to PGPASSWORD or ~/.pgpass)',
    );
  }
  let policy: Policy;
  try {
    policy =
      file.policy === undefined
        ? parsePolicy({ default: 'allow', rules: [] }, 'policy')
        : typeof file.policy === 'string'
          ? parsePolicyText(
              typeof policyText === 'string' ? policyText : '',
              resolveFrom(source, file.policy),
            )
          : Array.isArray(file.policy)
            ? layeredConfigPolicy(
                file.policy,
                Array.isArray(policyText) ? policyText : [],
                (index, message, key) =>
                  fault(
                    source,
                    lineAt(['policy', index, ...(key ? [key] : [])]),
                    `policy[${index}]${key ? `.${key}` : ''}: ${message}`,
                  ),
              )
            : parsePolicy(file.policy, `${source} policy`);
  } catch (error) {
    // a layer's problem is already told with its own line
    if (Array.isArray(file.policy)) throw error;
    throw fault(source, lineAt(['policy']), `policy: ${messageOf(error)}`);
  }
  const rememberFile = Array.isArray(file.policy)
    ? rememberingFile(file.policy, Array.isArray(policyText) ? policyText : [], (index, message, key) =>
        fault(source, lineAt(['policy', index, key]), `policy[${index}].${key}: ${message}`),
      )
    : undefined;
  const http = file.http ?? {};
  return {
    source,
    servers,
    clients,
    ...(file.stdio === undefined ? {} : { stdioClient: file.stdio }),
    http: {
      ...(http.host === undefined ? {} : { host: http.host }),
      ...(http.port === undefined ? {} : { port: http.port }),
      ...(http.path === undefined ? {} : { path: http.path }),
      ...(http.allowed_hosts === undefined ? {} : { allowedHosts: http.allowed_hosts }),
      ...(http.allowed_origins === undefined ? {} : { allowedOrigins: http.allowed_origins }),
      ...(http.max_sessions_per_client === undefined
        ? {}
        : { maxSessionsPerClient: http.max_sessions_per_client }),
      ...(http.session_idle_ms === undefined ? {} : { sessionIdleMs: http.session_idle_ms }),
    },
    policy,
    ...(rememberFile === undefined ? {} : { rememberFile }),
    ...(file.oauth === undefined ? {} : { oauth: oauthSettings(file.oauth) }),
    ledger: isPostgresUrl(ledger)
      ? ledger
      : `${resolveFrom(source, ledger)}${isLedgerDirectory(ledger) ? '/' : ''}`,
    durability: file.durability ?? 'batch',
    approve: file.approve ?? {},
    ...(file.timeout_ms === undefined ? {} : { timeoutMs: file.timeout_ms }),
    ...(file.held_call_ms === undefined ? {} : { heldCallMs: file.held_call_ms }),
    newTools: file.new_tools ?? 'withhold',
    ...(file.telemetry === undefined ? {} : { telemetry: telemetryOf(file.telemetry) }),
    ...(file.fleet === undefined
      ? {}
      : {
          fleet: fleetOf(file.fleet, {
            ledger,
            expand: (value) => expand(value, ['fleet', 'database']),
            fail: (message) => fault(source, lineAt(['fleet']), message),
          }),
        }),
  };
}

function resolveFrom(source: string, path: string): string {
  return isAbsolute(path) ? path : resolve(dirname(resolve(source)), path);
}
