/**
 * toolgate over MCP against what a user would otherwise run with the official SDK: one stdio call
 * through `MCPResolver` → `toolgate-mcp` vs `Client.callTool` → a raw `McpServer` with the same tool
 * (and vs a fresh stdio session per call); `toolgate-mcp` start to first `tools/list` answer vs that
 * raw server; and HTTP requests per second vs a raw SDK stateless server.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { MCPResolver } from '@toolgate/mcp-client';
import { cliPath as toolgateMcpPath } from '@toolgate/mcp-server/testing';
import { compareLatency } from './compare.js';
import { format, median, quick, report, row } from './report.js';
import { startToToolsList, stopped } from './stdio-startup.js';

const benchDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = toolgateMcpPath();
const toolgateArgs = [cli, '--tools', 'oracle'];

const oracleDefinition = `
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { drawOmen } from '@toolgate/builtins';
import { z } from 'zod';
const makeServer = () => {
  const server = new McpServer({ name: 'raw-oracle', version: '1.0.0' });
  server.registerTool('oracle', {
    description: 'Draw a cryptic omen. The same seed always gives the same omen.',
    inputSchema: { seed: z.string().describe('Any text, such as the current scene; it picks the omen.') },
    annotations: { readOnlyHint: true },
  }, async ({ seed }) => {
    const output = { omen: drawOmen(seed) };
    return { content: [{ type: 'text', text: JSON.stringify(output) }], structuredContent: output };
  });
  return server;
};`;

/** The minimal raw SDK server over stdio, as the SDK's README writes one. */
const rawStdioArgs = [
  '--input-type=module',
  '-e',
  `${oracleDefinition}
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
await makeServer().connect(new StdioServerTransport());
process.stdin.on('end', () => process.exit(0));`,
];

/** The SDK's stateless streamable HTTP pattern: a new McpServer and transport per request. */
const rawHttpArgs = [
  '--input-type=module',
  '-e',
  `${oracleDefinition}
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
const app = createMcpExpressApp();
app.post('/mcp', async (req, res) => {
  const server = makeServer();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on('close', () => { transport.close(); server.close(); });
  await server.connect(transport);
  await transport.handleRequest(req, res, req.body);
});
const listener = app.listen(0, '127.0.0.1', () =>
  process.stderr.write('listening on http://127.0.0.1:' + listener.address().port + '/mcp\\n'));
process.on('SIGTERM', () => process.exit(0));`,
];

const stdio = (args: string[]) =>
  new StdioClientTransport({ command: process.execPath, args, cwd: benchDir });

// 1. One call over stdio.
const resolver = await MCPResolver.connect([
  { name: 'toolgate-mcp', command: process.execPath, args: toolgateArgs },
]);
const raw = new Client({ name: 'bench', version: '1' });
await raw.connect(stdio(rawStdioArgs));
const rawToToolgate = new Client({ name: 'bench', version: '1' });
await rawToToolgate.connect(stdio(toolgateArgs));
let seed = 0;
const viaResolver = async () => {
  const output = (await resolver.call('oracle', { seed: `s${seed++}` })) as { omen?: string };
  if (!output.omen) throw new Error('the resolver returned no omen');
};
const viaRawClient = async () => {
  const result = await raw.callTool({ name: 'oracle', arguments: { seed: `s${seed++}` } });
  if (!(result.structuredContent as { omen?: string }).omen)
    throw new Error('the raw server returned no omen');
};
const viaRawClientToToolgate = async () => {
  const result = await rawToToolgate.callTool({ name: 'oracle', arguments: { seed: `s${seed++}` } });
  if (!(result.structuredContent as { omen?: string }).omen) throw new Error('toolgate-mcp returned no omen');
};
const call = await compareLatency({
  id: 'mcp-stdio-call',
  title: 'MCP: one stdio call through MCPResolver',
  what: 'One `oracle` call over a long-lived stdio session: `MCPResolver.call` → `toolgate-mcp` vs the raw SDK `Client.callTool` → a raw `McpServer` with the same tool.',
  anchor: { name: 'raw SDK Client.callTool → raw McpServer', fn: viaRawClient },
  subject: { name: 'MCPResolver.call → toolgate-mcp', fn: viaResolver },
  others: [{ name: 'raw SDK Client.callTool → toolgate-mcp', fn: viaRawClientToToolgate }],
  maxRatio: 1.1,
});

// 1b. A fresh stdio session per call, as a naive client does.
const freshSession = async () => {
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(stdio(toolgateArgs));
  await client.callTool({ name: 'oracle', arguments: { seed: 'fresh' } });
  await client.close();
};
const freshRounds: number[] = [];
for (let round = 0; round < (quick ? 3 : 10); round++) {
  const start = performance.now();
  await freshSession();
  freshRounds.push((performance.now() - start) * 1000);
}
const session = call.rows[1]!;
report({
  id: 'mcp-stdio-fresh-session',
  title: 'MCP: a long-lived session vs a fresh stdio session per call',
  what: 'One `oracle` call through `MCPResolver` on its long-lived session vs spawning `toolgate-mcp`, initializing, calling and closing for each call (what a naive client does).',
  rows: [row('fresh stdio session per call', freshRounds, 'µs'), { ...session }],
  figure: `${format(median(freshRounds) / session.median)}× faster with one session`,
  target: '',
  met: null,
});
await resolver.close();
await raw.close();
await rawToToolgate.close();

// 2. Start to first tools/list answer.
const startup = { toolgate: [] as number[], raw: [] as number[] };
for (let round = 0; round < (quick ? 3 : 9); round++) {
  const perRound = { toolgate: [] as number[], raw: [] as number[] };
  for (let run = 0; run < 3; run++) {
    perRound.raw.push(await startToToolsList(rawStdioArgs, benchDir));
    perRound.toolgate.push(await startToToolsList(toolgateArgs, benchDir));
  }
  startup.raw.push(median(perRound.raw));
  startup.toolgate.push(median(perRound.toolgate));
}
const startupRatio = median(startup.toolgate) / median(startup.raw);
report({
  id: 'mcp-startup',
  title: 'MCP: start to first tools/list answer',
  what: 'Spawn the server over stdio, send initialize, initialized and tools/list at once, and wait for the tools/list answer: `toolgate-mcp --tools oracle` vs a minimal raw SDK `McpServer` with the same tool.',
  rows: [
    row('raw SDK McpServer (node -e)', startup.raw, 'ms'),
    row('toolgate-mcp --tools oracle', startup.toolgate, 'ms'),
  ],
  figure: `ratio ${format(startupRatio)}×`,
  target: '≤ 1.2×',
  met: startupRatio <= 1.2,
});

// 3. HTTP requests per second.
async function startHttp(args: string[]): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, args, { cwd: benchDir, stdio: ['ignore', 'ignore', 'pipe'] });
  const url = await new Promise<string>((resolve, reject) => {
    let text = '';
    child.once('exit', (code) => reject(new Error(`HTTP server exited (${code}): ${text}`)));
    child.stderr!.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const match = /listening on (\S+)/.exec(text);
      if (match) resolve(match[1]!);
    });
  });
  child.removeAllListeners('exit');
  return { url, child };
}

function post(url: URL, body: string, agent: Agent): Promise<void> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'content-length': Buffer.byteLength(body),
        },
      },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => {
          text += chunk.toString('utf8');
        });
        response.on('end', () =>
          response.statusCode === 200 && text.includes('omen')
            ? resolve()
            : reject(new Error(`${response.statusCode} ${text}`)),
        );
      },
    );
    outgoing.once('error', reject);
    outgoing.end(body);
  });
}

async function requestsPerSecond(url: string, ms: number, workers = 16): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: workers });
  const target = new URL(url);
  let count = 0;
  const end = performance.now() + ms;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      for (let index = 0; performance.now() < end; index++) {
        const body = JSON.stringify({
          jsonrpc: '2.0',
          id: index,
          method: 'tools/call',
          params: { name: 'oracle', arguments: { seed: `${worker}-${index}` } },
        });
        await post(target, body, agent);
        count += 1;
      }
    }),
  );
  const elapsed = performance.now() - start;
  agent.destroy();
  return count / (elapsed / 1000);
}

const rawHttp = await startHttp(rawHttpArgs);
const toolgateHttp = await startHttp([cli, '--http', '--tools', 'oracle']);
await requestsPerSecond(rawHttp.url, 300);
await requestsPerSecond(toolgateHttp.url, 300);
const throughput = { toolgate: [] as number[], raw: [] as number[] };
for (let round = 0; round < (quick ? 3 : 7); round++) {
  throughput.raw.push(await requestsPerSecond(rawHttp.url, quick ? 500 : 1500));
  throughput.toolgate.push(await requestsPerSecond(toolgateHttp.url, quick ? 500 : 1500));
}
await stopped(rawHttp.child, () => rawHttp.child.kill('SIGTERM'));
await stopped(toolgateHttp.child, () => toolgateHttp.child.kill('SIGTERM'));
const throughputRatio = median(throughput.toolgate) / median(throughput.raw);
report({
  id: 'mcp-http-throughput',
  title: 'MCP: streamable HTTP requests per second',
  what: "16 keep-alive connections sending `tools/call` oracle requests for a fixed time: `toolgate-mcp --http` (stateless, Host/Origin checks, body limit) vs the SDK's stateless pattern (`createMcpExpressApp`, a new `McpServer` and transport per request, JSON responses on both).",
  rows: [
    row('raw SDK stateless server (express)', throughput.raw, 'req/s'),
    row('toolgate-mcp --http', throughput.toolgate, 'req/s'),
  ],
  figure: `ratio ${format(throughputRatio)}×`,
  target: '≥ 0.9×',
  met: throughputRatio >= 0.9,
});
