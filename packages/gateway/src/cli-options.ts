import { ToolgateError } from '@toolgate/core';
import { parseCommandLine, wholeNumber } from '@toolgate/core/command-line';

/** The command line of `toolgate-gateway`, parsed. */
export type GatewayCommand =
  | { command: 'help' }
  | { command: 'version' }
  | { command: 'serve'; config: string; transport: 'stdio' | 'http'; port?: number }
  | { command: 'approve'; config: string; tool: string; pid?: number; fingerprint?: string }
  | { command: 'review'; config: string };

/** The `--help` text. */
export const usage = `toolgate-gateway: upstream MCP servers behind grants, policy and a verified ledger

usage:
  toolgate-gateway --config gateway.yaml            serve the config's "stdio" client on stdin/stdout
  toolgate-gateway --config gateway.yaml --http     serve every client with a token_env over HTTP
  toolgate-gateway review --config gateway.yaml     show each tool change awaiting approval, as a diff
  toolgate-gateway approve NAME --config gateway.yaml [--fingerprint F] [--pid PID]
                                                    approve a changed tool as the ledger reported it
                                                    (into the config's approve and gateway.lock.json)
  toolgate-gateway approvals --config gateway.yaml  (fleet) the calls waiting for an operator's approval
  toolgate-gateway answer ID --approve|--deny --config gateway.yaml [--reason TEXT] [--by NAME]
                                                    (fleet) answer one, whichever instance's call waits
  toolgate-gateway remembered --config gateway.yaml  the "always" answers, numbered (rules of the
                                                    policy: layer that says remember: true)
  toolgate-gateway remembered forget [N...] [--sessions] --config gateway.yaml [--pid PID]
                                                    remove "always" answers N...; --pid sends the running
                                                    gateway SIGHUP, which also forgets every answer
                                                    given "for this session" (--sessions: only that)

options:
  --config FILE   the YAML configuration (required; or the TOOLGATE_GATEWAY_CONFIG variable)
  --http          streamable HTTP (host, port and path from the config's "http"; default 127.0.0.1, a free port, /mcp)
  --port N        the HTTP port, over the config's
  --fingerprint F (approve) approve only if the latest change is the one review showed with F
  --pid PID       (approve, remembered forget) send SIGHUP to the running gateway so it applies
                  the change now (checked first: PID must be a running toolgate-gateway)
  --version       print the version

examples:
  DESKTOP_TOKEN=$(openssl rand -hex 24) toolgate-gateway --config gateway.yaml --http --port 8765
  toolgate-gateway remembered forget 2 --config gateway.yaml --pid 4242

Over HTTP it speaks MCP 2026-07-28 (stateless) and 2025-11-25 (sessions); instances behind one
address share TOOLGATE_GATEWAY_STATE_KEY (32+ characters), which signs the state of an ask.

SIGHUP reloads the config (clients, grants, policy, approve) without dropping clients; a bad
config is refused and the old one kept. It also forgets every answer remembered for a session. Exit codes: 0 done, 1 failed while running, 2 bad
command line or config.
`;

/** Parses the arguments; a bad one is an INVALID_DEFINITION error naming it. */
export function parseGatewayArgs(argv: readonly string[], env: NodeJS.ProcessEnv = {}): GatewayCommand {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    throw new ToolgateError('INVALID_DEFINITION', `${(error as Error).message}; see toolgate-gateway --help`);
  }
  const { positionals } = parsed;
  const values = { ...parsed.values, config: parsed.values.config ?? env.TOOLGATE_GATEWAY_CONFIG };
  if (values.help) return { command: 'help' };
  if (values.version) return { command: 'version' };
  if (values.config === undefined || values.config === '') {
    throw new ToolgateError(
      'INVALID_DEFINITION',
      'give the configuration: --config gateway.yaml (or TOOLGATE_GATEWAY_CONFIG)',
    );
  }
  if (positionals[0] === 'approve') {
    const tool = positionals[1];
    if (tool === undefined || positionals.length > 2) {
      throw new ToolgateError(
        'INVALID_DEFINITION',
        'approve takes one tool name: toolgate-gateway approve NAME --config FILE',
      );
    }
    return {
      command: 'approve',
      config: values.config,
      tool,
      ...(values.pid === undefined ? {} : { pid: processId(values.pid) }),
      ...(values.fingerprint === undefined ? {} : { fingerprint: values.fingerprint }),
    };
  }
  if (positionals[0] === 'review' && positionals.length === 1)
    return { command: 'review', config: values.config };
  if (positionals.length > 0) {
    throw new ToolgateError(
      'INVALID_DEFINITION',
      `unknown command ${JSON.stringify(positionals[0])}; the commands are "review", "approve", "approvals", "answer" and "remembered"`,
    );
  }
  return {
    command: 'serve',
    config: values.config,
    transport: values.http ? 'http' : 'stdio',
    ...(values.port === undefined ? {} : { port: wholeNumber(values.port, { option: '--port' }) }),
  };
}

const optionShapes = {
  config: { type: 'string' },
  http: { type: 'boolean' },
  port: { type: 'string' },
  pid: { type: 'string' },
  fingerprint: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
} as const;

function parse(argv: readonly string[]) {
  return parseCommandLine(argv, { options: optionShapes, positionals: true });
}

function processId(text: string): number {
  const pid = wholeNumber(text, { option: '--pid' });
  if (pid < 1) {
    throw new ToolgateError(
      'INVALID_DEFINITION',
      `--pid must be the process id of a running toolgate-gateway, a whole number from 1, not ${JSON.stringify(text)} (0 would signal your own process group)`,
    );
  }
  return pid;
}
