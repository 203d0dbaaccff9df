/**
 * toolgate-gateway over streamable HTTP against calling the tool's server straight: 16 SDK clients
 * (and, printed beside, one) each calling `oracle` one call after another for a fixed time, through
 * `toolgate-gateway --http` (bearer token, grant, policy, ledger with `batch` durability, the upstream
 * `toolgate-mcp` over stdio) vs the same clients calling `toolgate-mcp --http` directly. Issue 27
 * asks ≥ 0.7× the direct throughput at 16 clients.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { cliPath as toolgateMcpPath } from '@toolgate/mcp-server/testing';
import { format, median, quick, report, row } from './report.js';

const gatewayCli = join(
  dirname(createRequire(import.meta.url).resolve('@toolgate/gateway/package.json')),
  'dist',
  'cli.js',
);
const token = 'bench-token-0123456789abcdef';
const scratch = mkdtempSync(join(tmpdir(), 'toolgate-gateway-http-bench-'));
const config = join(scratch, 'gateway.yaml');
writeFileSync(
  config,
  `servers:\n  oracle: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(toolgateMcpPath())}, "--tools", "oracle"], prefix: o }\n` +
    'clients:\n  bench: { token_env: BENCH_TOKEN, tools: ["o__*"] }\n' +
    'http: { host: 127.0.0.1, port: 0 }\nledger: ./gateway.ledger.jsonl\ndurability: batch\n',
);

async function start(args: string[]): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, args, {
    cwd: scratch,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, BENCH_TOKEN: token },
  });
  const url = await new Promise<string>((resolve, reject) => {
    let text = '';
    child.once('exit', (code) => reject(new Error(`the server exited (${code}): ${text}`)));
    child.stderr!.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const match = /listening on (\S+)/.exec(text);
      if (match) resolve(match[1]!);
    });
  });
  child.removeAllListeners('exit');
  child.stderr!.resume();
  return { url, child };
}

async function clients(url: string, count: number): Promise<Client[]> {
  return Promise.all(
    Array.from({ length: count }, async () => {
      const client = new Client({ name: 'bench', version: '1' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(url), {
          requestInit: { headers: { Authorization: `Bearer ${token}` } },
        }),
      );
      return client;
    }),
  );
}

/** Calls per second of `connected`, each calling `tool` one call after another for `ms`. */
async function callsPerSecond(connected: Client[], tool: string, ms: number): Promise<number> {
  let count = 0;
  const started = performance.now();
  const end = started + ms;
  await Promise.all(
    connected.map(async (client, index) => {
      while (performance.now() < end) {
        const result = await client.callTool({ name: tool, arguments: { seed: `${index}-${count}` } });
        if (result.isError) throw new Error(`the call failed: ${JSON.stringify(result)}`);
        count += 1;
      }
    }),
  );
  return count / ((performance.now() - started) / 1000);
}

const direct = await start([toolgateMcpPath(), '--http', '--tools', 'oracle']);
const gateway = await start([gatewayCli, '--config', config, '--http']);
try {
  for (const width of [16, 1]) {
    const straight = await clients(direct.url, width);
    const through = await clients(gateway.url, width);
    await callsPerSecond(straight, 'oracle', 300);
    await callsPerSecond(through, 'o__oracle', 300);
    const rounds = { direct: [] as number[], gateway: [] as number[] };
    for (let round = 0; round < (quick ? 2 : 7); round++) {
      rounds.direct.push(await callsPerSecond(straight, 'oracle', quick ? 300 : 1500));
      rounds.gateway.push(await callsPerSecond(through, 'o__oracle', quick ? 300 : 1500));
    }
    for (const client of [...straight, ...through]) await client.close();
    const ratio = median(rounds.gateway) / median(rounds.direct);
    report({
      id: `gateway-http-throughput-${width}`,
      title: `Gateway: calls per second over streamable HTTP, ${width} client${width === 1 ? '' : 's'}`,
      what:
        `${width} MCP SDK client${width === 1 ? '' : 's'} over streamable HTTP, each calling \`oracle\` one call after ` +
        'another for a fixed time, rounds alternating: through `toolgate-gateway --http` (bearer token, grant, ' +
        'policy, ledger with batch durability, `toolgate-mcp` upstream over stdio) vs `toolgate-mcp --http` directly.',
      rows: [
        row('SDK clients → toolgate-mcp --http', rounds.direct, 'calls/s'),
        row('SDK clients → toolgate-gateway --http → toolgate-mcp', rounds.gateway, 'calls/s'),
      ],
      figure: `ratio ${format(ratio)}× the direct throughput`,
      target: width === 16 ? '≥ 0.7×' : '',
      met: quick || width !== 16 ? null : ratio >= 0.7,
    });
  }
} finally {
  direct.child.kill('SIGTERM');
  gateway.child.kill('SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, 500));
  rmSync(scratch, { recursive: true, force: true });
}
