import { type ChildProcess, spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The built gateway command (the tests run it as a user would). */
export const cliPath = join(packageDir, 'dist', 'cli.js');
/** A binary installed in this package's node_modules/.bin. */
export const binPath = (name: string) => join(packageDir, 'node_modules', '.bin', name);
/** The real third-party servers, their built entries. */
export const filesystemServer = join(
  packageDir,
  'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js',
);
export const everythingServer = join(
  packageDir,
  'node_modules/@modelcontextprotocol/server-everything/dist/index.js',
);
/** Our own upstream whose tool list changes on request. */
export const changingServer = join(packageDir, 'src/testing-fixtures/changing.mjs');

/** A scratch directory: a workspace with a readable file and a secret one, and room for the config and ledger. */
export function scratch(): { dir: string; workspace: string; remove: () => void } {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'toolgate-gateway-')));
  const workspace = join(dir, 'work');
  mkdirSync(join(workspace, 'secret'), { recursive: true });
  writeFileSync(join(workspace, 'hello.txt'), 'hello from the workspace\n');
  writeFileSync(join(workspace, 'secret', 'key.txt'), 'do not read me\n');
  return { dir, workspace, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Tokens for the HTTP clients (long enough for the gateway's check). */
export const tokens = { desktop: 'desktop-token-0123456789abcdef', agent: 'agent-token-0123456789abcdef' };

/**
 * A configuration of the changing server alone (prefix `mine`) for one HTTP client, `agent`
 * (`AGENT_TOKEN`, {@link tokens}.agent), granted `mine__note`: allow-all policy, a ledger without
 * fsync. `http` is the body of an `http:` section, when the test needs one.
 */
export function agentNoteConfig(http = ''): string {
  return `servers:
  mine:
    command: ${JSON.stringify(process.execPath)}
    args: [${JSON.stringify(changingServer)}]
    prefix: mine
clients:
  agent: { token_env: AGENT_TOKEN, tools: ["mine__note"] }
${http === '' ? '' : `http:\n${http}`}policy:
  default: allow
  rules: []
ledger: ./gateway.ledger.jsonl
durability: none
`;
}

/** The headers of a raw streamable HTTP request by the `agent` client of {@link agentNoteConfig}. */
export const agentHeaders = {
  authorization: `Bearer ${tokens.agent}`,
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};

/** Opens a 2025-era HTTP session with a bare `initialize` (no GET stream, no DELETE); returns its id. */
export async function initializeSession(url: string, protocolVersion: string, name: string): Promise<string> {
  const response = await fetch(url, {
    method: 'POST',
    headers: agentHeaders,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion, capabilities: {}, clientInfo: { name, version: '1' } },
    }),
  });
  await response.text();
  const session = response.headers.get('mcp-session-id');
  if (response.status !== 200 || session === null)
    throw new Error(
      `initialize answered HTTP ${response.status}${session === null ? ', no session id' : ''}`,
    );
  return session;
}

/** The test configuration: filesystem, everything and our changing server behind two clients. */
export function configText(workspace: string, extra = ''): string {
  const node = JSON.stringify(process.execPath);
  return `# a gateway for the tests
servers:
  files:
    command: ${node}
    args: [${JSON.stringify(filesystemServer)}, ${JSON.stringify(workspace)}]
    prefix: fs
    root: ${JSON.stringify(workspace)}
    subjects: { read_text_file: { paths: [path] }, list_directory: { paths: [path] } }
  everything:
    command: ${node}
    args: [${JSON.stringify(everythingServer)}, stdio]
    prefix: ev
  mine:
    command: ${node}
    args: [${JSON.stringify(changingServer)}]
    prefix: mine
clients:
  desktop: { token_env: DESKTOP_TOKEN, tools: ["fs__read_text_file", "fs__list_directory", "ev__echo", "ev__get-tiny-image", "ev__trigger-long-running-operation", "mine__*"] }
  agent: { token_env: AGENT_TOKEN, tools: ["ev__get-sum"] }
stdio: desktop
policy:
  default: allow
  rules:
    - { tools: ["fs__*"], paths: ["**/secret/**"], decision: deny, reason: secrets stay put }
    - { tools: ["ev__echo"], decision: ask, reason: echo needs a human }
ledger: ./gateway.ledger.jsonl
${extra}`;
}

/** How the test client answers an elicitation: approve, decline, or it declares no elicitation at all. */
export type Answer = 'approve' | 'decline' | 'none';

/** A raw SDK client that declares elicitation (unless `answer` is none) and answers it as told. */
export function sdkClient(answer: () => Answer = () => 'approve'): Client {
  const declares = answer() !== 'none';
  const client = new Client(
    { name: 'gateway-test', version: '1.0.0' },
    { capabilities: declares ? { elicitation: {} } : {} },
  );
  if (declares) {
    client.setRequestHandler(ElicitRequestSchema, () =>
      answer() === 'approve' ? { action: 'accept', content: { approve: true } } : { action: 'decline' },
    );
  }
  return client;
}

/** Connects a client to the gateway command over stdio; the child's stderr is collected. */
export async function connectStdio(
  client: Client,
  config: string,
): Promise<{ transport: StdioClientTransport; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cliPath, '--config', config],
    env: { ...process.env } as Record<string, string>,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  await client.connect(transport);
  return { transport, stderr: () => stderr };
}

/** The gateway command on stdio with one client connected to it. */
export interface StdioGateway {
  client: Client;
  transport: StdioClientTransport;
  /** What the gateway wrote to stderr so far. */
  stderr: () => string;
  /** Closes the client, which ends the gateway. */
  close: () => Promise<void>;
}

/** Starts the gateway command on `config` over stdio with an {@link sdkClient} (answering as `answer` says) connected. */
export async function startStdioGateway(config: string, answer?: () => Answer): Promise<StdioGateway> {
  const client = sdkClient(answer);
  const { transport, stderr } = await connectStdio(client, config);
  return { client, transport, stderr, close: () => client.close() };
}

/** A gateway command serving HTTP, as a child process. */
export interface HttpGateway {
  url: string;
  child: ChildProcess;
  stderr: () => string;
  /** Connects `client` (by default an {@link sdkClient} that approves) with `token`; {@link stop} closes it. */
  connect: (token: string, client?: Client) => Promise<Client>;
  /** Closes the clients it connected, then stops the gateway. */
  stop: () => Promise<void>;
}

/**
 * Starts the gateway command with `--http` and waits for its "listening on" line; `env` adds
 * variables to the tokens of {@link tokens}.
 */
export async function startHttpGateway(config: string, env: NodeJS.ProcessEnv = {}): Promise<HttpGateway> {
  const child = spawn(process.execPath, [cliPath, '--config', config, '--http'], {
    env: { ...process.env, DESKTOP_TOKEN: tokens.desktop, AGENT_TOKEN: tokens.agent, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const { url, stderr } = await listeningOn(child);
  const clients: Client[] = [];
  return {
    url,
    child,
    stderr,
    connect: async (token, client = sdkClient()) => {
      clients.push(client);
      await connectHttp(client, url, token);
      return client;
    },
    stop: async () => {
      for (const client of clients) await client.close().catch(() => undefined);
      await stopChild(child);
    },
  };
}

/**
 * Waits for a gateway child's "listening on" line (60 s at most): its URL, and its stderr so far as
 * it keeps being read. The child's stderr must be piped.
 */
export async function listeningOn(child: ChildProcess): Promise<{ url: string; stderr: () => string }> {
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "listening on" within 60 s: ${stderr}`)), 60_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      const match = /listening on (\S+)/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.once('exit', (code) => reject(new Error(`the gateway exited (${code}): ${stderr}`)));
  });
  return { url, stderr: () => stderr };
}

/** Connects a client over HTTP with a bearer token. */
export async function connectHttp(
  client: Client,
  url: string,
  token: string,
): Promise<StreamableHTTPClientTransport> {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return transport;
}

/** Sends SIGTERM and waits for the exit (SIGKILL after 20 s: a hang must not outlive the test). */
export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** The text of the first text block of a tool result. */
export function textOf(result: unknown): string {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content ?? [];
  return content.find((block) => block.type === 'text')?.text ?? '';
}

/** Waits until `check` returns true, polling; fails after `boundMs` (a guard against a hang, not a budget). */
export async function eventually(check: () => Promise<boolean>, boundMs = 60_000): Promise<void> {
  const end = Date.now() + boundMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('the awaited outcome did not come within the bound');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** One record of a file ledger, as the tests read it. */
export interface LedgerLine {
  kind: string;
  payload: Record<string, unknown>;
}

/** The records of a file ledger, oldest first (none while it does not exist yet). */
export function ledgerLines(path: string): LedgerLine[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as LedgerLine);
}

/** The answers recorded (`policy.decided`) for calls of `tool` whose parameters say `path` ends so. */
export function answersFor(path: string, tool: string, file: string): Array<Record<string, unknown>> {
  const lines = ledgerLines(path);
  const calls = new Set(
    lines
      .filter(
        (line) =>
          line.kind === 'tool.called' &&
          line.payload.tool === tool &&
          String((line.payload.parameters as { path?: unknown })?.path).endsWith(`/${file}`),
      )
      .map((line) => line.payload.callId),
  );
  return lines
    .filter((line) => line.kind === 'policy.decided' && calls.has(line.payload.callId))
    .map((line) => (line.payload.answer ?? {}) as Record<string, unknown>);
}
