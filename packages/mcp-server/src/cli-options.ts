import { isIP } from 'node:net';
import { ToolgateError } from '@toolgate/core';
import { parseCommandLine, wholeNumber } from '@toolgate/core/command-line';
import { isLoopback } from './http-guard.js';

/** The parsed command line of `toolgate-mcp`. */
export interface CliOptions {
  transport: 'stdio' | 'http';
  host: string;
  port: number;
  tools: string[];
  root: string | undefined;
  /** Run the shell tool in a bubblewrap sandbox (SandboxEnvironment) instead of LocalEnvironment. */
  sandbox: boolean;
  /**
   * `--policy FILE` (repeatable): policy files or directories, most authoritative first, layered as
   * `loadPolicyFiles` layers them. Empty: every call of an exposed tool is allowed.
   */
  policy: string[];
  token: string | undefined;
  /** `--no-auth`: serve HTTP beyond loopback without a token, on purpose. */
  noAuth: boolean;
  /** Extra accepted `Host` values (host:port), e.g. the name a load balancer forwards. */
  allowedHosts: string[] | undefined;
  /** Extra accepted `Origin` values. */
  allowedOrigins: string[] | undefined;
  maxBodyBytes: number;
  help: boolean;
  /** `--version`: print the package version and exit. */
  version: boolean;
}

/** The usage text of `toolgate-mcp`. */
export const usage = `Usage: toolgate-mcp [options]

Serves toolgate tools over the Model Context Protocol (stdio by default).

  --tools LIST        comma-separated tools to expose (default: oracle)
  --root DIR          workspace for the file and shell tools (scopes their paths; not a sandbox)
  --sandbox           run commands in a bubblewrap sandbox confined to --root (Linux; needs bwrap)
  --policy FILE       judge every call by this policy (YAML or JSON, or a directory of them);
                      repeat it for layers, most authoritative first: a deny or ask of a layer
                      cannot be loosened by one below. A layer is named after its file (or
                      DIR/FILE); NAME=PATH names it. Without it, every exposed tool is allowed.
                      Nobody can be asked here: a call policy says "ask" for is refused
  --http              serve streamable HTTP (stateless; MCP 2026-07-28 and 2025-11-25) instead of stdio
  --host HOST         address to bind with --http (default: 127.0.0.1)
  --port N            port to bind with --http (default: 0, any free port)
  --token-env NAME    require "Authorization: Bearer $NAME" over HTTP; needed when
                      --host is not loopback (127.0.0.1, ::1, localhost)
  --no-auth           serve a non-loopback --host without a token anyway (warns)
  --allowed-hosts L   Host headers (host:port, comma-separated) accepted besides the bound address
  --allowed-origins L Origin headers accepted besides http:// + each accepted host
  --max-body-bytes N  largest HTTP request body (default: 1048576)
  -h, --help          show this text
  --version           print the version

Examples:
  toolgate-mcp --tools read_file,list_dir --root ./workspace
  toolgate-mcp --tools read_file,shell --root ./workspace \\
    --policy /etc/toolgate/managed.yaml --policy ./policy.d --policy user=./my.policy.yaml
  TOOLGATE_TOKEN=$(openssl rand -hex 32) toolgate-mcp --http --host 0.0.0.0 --port 8931 \\
    --token-env TOOLGATE_TOKEN

Bound to 0.0.0.0 or ::, the server accepts the Host header of each address of this machine; a
name (myhost:8931) needs --allowed-hosts myhost:8931.

With OTEL_EXPORTER_OTLP_ENDPOINT set (e.g. http://127.0.0.1:4318), every call is exported as an
OpenTelemetry span over OTLP/HTTP (OTEL_EXPORTER_OTLP_HEADERS, OTEL_SERVICE_NAME apply).

Exit codes: 0 stopped (stdin ended, SIGTERM or SIGINT), 2 bad arguments or cannot start.
`;

/** Parses `toolgate-mcp` arguments; bad input is an INVALID_DEFINITION error that says what to fix. */
export function parseCliOptions(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): CliOptions {
  let values: ReturnType<typeof parseCommandLine<typeof optionShapes>>['values'];
  try {
    values = parseCommandLine(argv, { options: optionShapes }).values;
  } catch (error) {
    throw new ToolgateError('INVALID_DEFINITION', `${(error as Error).message}\n\n${usage}`);
  }
  const tools = [
    ...new Set(
      (values.tools ?? 'oracle')
        .split(',')
        .map((name) => name.trim())
        .filter((name) => name !== ''),
    ),
  ];
  if (tools.length === 0) throw new ToolgateError('INVALID_DEFINITION', '--tools names no tool');
  let token: string | undefined;
  if (values['token-env'] !== undefined) {
    token = env[values['token-env']];
    if (!token) {
      throw new ToolgateError(
        'INVALID_DEFINITION',
        `--token-env ${values['token-env']}: that environment variable is not set or empty`,
      );
    }
  }
  const transport = values.http ? 'http' : 'stdio';
  const host = values.host ?? '127.0.0.1';
  checkHost(host);
  const noAuth = values['no-auth'] ?? false;
  if (noAuth && token !== undefined) {
    throw new ToolgateError(
      'INVALID_DEFINITION',
      `--no-auth and --token-env ${values['token-env']} contradict each other; pass one of them`,
    );
  }
  if (transport === 'http' && token === undefined && !noAuth && !isLoopback(host)) {
    throw new ToolgateError(
      'INVALID_DEFINITION',
      `--host ${host} is not loopback, so anyone who can reach it could call ${tools.join(', ')} without a token; ` +
        `require one: TOOLGATE_TOKEN=$(openssl rand -hex 32) toolgate-mcp --http --host ${host} --token-env TOOLGATE_TOKEN ` +
        '(clients send "Authorization: Bearer <token>"), or pass --no-auth to serve it unauthenticated anyway',
    );
  }
  return {
    transport,
    host,
    port: wholeNumber(values.port ?? '0', { option: '--port', max: 65535 }),
    tools,
    root: values.root,
    sandbox: values.sandbox ?? false,
    policy: values.policy ?? [],
    token,
    noAuth,
    allowedHosts: list(values['allowed-hosts']),
    allowedOrigins: list(values['allowed-origins']),
    maxBodyBytes: wholeNumber(values['max-body-bytes'] ?? '1048576', {
      option: '--max-body-bytes',
      min: 1,
      max: 2 ** 31,
    }),
    help: values.help ?? false,
    version: values.version ?? false,
  };
}

const optionShapes = {
  tools: { type: 'string' },
  root: { type: 'string' },
  sandbox: { type: 'boolean' },
  policy: { type: 'string', multiple: true },
  http: { type: 'boolean' },
  host: { type: 'string' },
  port: { type: 'string' },
  'token-env': { type: 'string' },
  'no-auth': { type: 'boolean' },
  'allowed-hosts': { type: 'string' },
  'allowed-origins': { type: 'string' },
  'max-body-bytes': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
} as const;

/** Refuses a --host that looks like an IPv4 address but is not one, before any name lookup. */
function checkHost(host: string): void {
  if (host === '')
    throw new ToolgateError('INVALID_DEFINITION', '--host is empty; give an address such as 127.0.0.1');
  if (/^[\d.]+$/.test(host) && isIP(host) === 0) {
    throw new ToolgateError(
      'INVALID_DEFINITION',
      `--host ${host} is not a valid IPv4 address (four numbers from 0 to 255); ` +
        'give an address of this machine, such as 127.0.0.1 (loopback) or 0.0.0.0 (every interface)',
    );
  }
}

function list(text: string | undefined): string[] | undefined {
  if (text === undefined) return undefined;
  return text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}
