/**
 * toolgate-gateway over streamable HTTP with 1, 4, 16 and 64 concurrent SDK clients, each calling
 * `oracle` one call after another for a fixed time: straight to `toolgate-mcp --http`, through one
 * `toolgate-gateway --http` (file ledger), and through two instances on one PostgreSQL ledger with
 * `fleet:` (each client held by one instance, alternating, as a load balancer with sticky sessions
 * does). Calls per second and p50/p99 latency per call; the ratios are against the direct calls of
 * the same run. The two-instance rows need TOOLGATE_TEST_POSTGRES_URL; without it they are skipped,
 * saying so.
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
const postgres = process.env.TOOLGATE_TEST_POSTGRES_URL;
const scratch = mkdtempSync(join(tmpdir(), 'toolgate-gateway-clients-bench-'));
const upstream = `servers:\n  oracle: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(toolgateMcpPath())}, "--tools", "oracle"], prefix: o }\n`;
const common =
  'clients:\n  bench: { token_env: BENCH_TOKEN, tools: ["o__*"] }\n' +
  'http: { host: 127.0.0.1, port: 0, max_sessions_per_client: 256 }\n';

function writeConfig(name: string, ledger: string): string {
  const path = join(scratch, name);
  const fleet = ledger.startsWith('postgres') ? 'fleet: { approvals: operator }\n' : 'durability: batch\n';
  writeFileSync(path, `${upstream}${common}ledger: ${JSON.stringify(ledger)}\n${fleet}`);
  return path;
}

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

/** `count` clients, the i-th connected to `urls[i % urls.length]`. */
async function clients(urls: readonly string[], count: number): Promise<Client[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, index) => {
      const client = new Client({ name: 'bench', version: '1' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(urls[index % urls.length]!), {
          requestInit: { headers: { Authorization: `Bearer ${token}` } },
        }),
      );
      return client;
    }),
  );
}

interface Round {
  callsPerSecond: number;
  p50: number;
  p99: number;
}

/** Each of `connected` calling `tool` one call after another for `ms`: calls/s and per-call latency (ms). */
async function measure(connected: Client[], tool: string, ms: number): Promise<Round> {
  const latencies: number[] = [];
  const started = performance.now();
  const end = started + ms;
  await Promise.all(
    connected.map(async (client, index) => {
      while (performance.now() < end) {
        const before = performance.now();
        const result = await client.callTool({
          name: tool,
          arguments: { seed: `${index}-${latencies.length}` },
        });
        latencies.push(performance.now() - before);
        if (result.isError) throw new Error(`the call failed: ${JSON.stringify(result)}`);
      }
    }),
  );
  latencies.sort((left, right) => left - right);
  const at = (fraction: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * fraction))]!;
  return {
    callsPerSecond: latencies.length / ((performance.now() - started) / 1000),
    p50: at(0.5),
    p99: at(0.99),
  };
}

const running: ChildProcess[] = [];
try {
  const direct = await start([toolgateMcpPath(), '--http', '--tools', 'oracle']);
  running.push(direct.child);
  const one = await start([gatewayCli, '--config', writeConfig('one.yaml', './one.ledger.jsonl'), '--http']);
  running.push(one.child);
  const targets: { name: string; urls: string[]; tool: string }[] = [
    { name: 'SDK clients → toolgate-mcp --http', urls: [direct.url], tool: 'oracle' },
    { name: '→ one toolgate-gateway (file ledger)', urls: [one.url], tool: 'o__oracle' },
  ];
  if (postgres === undefined) {
    console.log('skipped: the two-instance rows: TOOLGATE_TEST_POSTGRES_URL is unset');
  } else {
    const ledger = `${postgres}${postgres.includes('?') ? '&' : '?'}ledger=bench-fleet-${process.pid}-${Date.now().toString(36)}`;
    const config = writeConfig('fleet.yaml', ledger);
    const first = await start([gatewayCli, '--config', config, '--http']);
    running.push(first.child);
    const second = await start([gatewayCli, '--config', config, '--http']);
    running.push(second.child);
    targets.push({
      name: '→ two instances, one PostgreSQL ledger, fleet',
      urls: [first.url, second.url],
      tool: 'o__oracle',
    });
  }
  for (const width of [1, 4, 16, 64]) {
    const connected = await Promise.all(targets.map((target) => clients(target.urls, width)));
    for (const [index, target] of targets.entries()) await measure(connected[index]!, target.tool, 300); // warm-up
    const rounds = targets.map(() => [] as Round[]);
    for (let round = 0; round < (quick ? 1 : 5); round++) {
      for (const [index, target] of targets.entries()) {
        rounds[index]!.push(await measure(connected[index]!, target.tool, quick ? 300 : 1500));
      }
    }
    for (const client of connected.flat()) await client.close();
    const throughput = rounds.map((each) => median(each.map((round) => round.callsPerSecond)));
    report({
      id: `gateway-clients-${width}`,
      title: `Gateway: ${width} concurrent HTTP client${width === 1 ? '' : 's'}, direct vs one and two instances`,
      what:
        `${width} MCP SDK client${width === 1 ? '' : 's'} over streamable HTTP (2025-11-25 sessions), each calling \`oracle\` ` +
        'one call after another for a fixed time, targets alternating per round; the gateways with a bearer token, grant, ' +
        'policy and ledger, `toolgate-mcp` upstream over stdio (one per instance).',
      rows: targets.flatMap((target, index) => {
        const each = rounds[index]!;
        return [
          row(
            target.name,
            each.map((round) => round.callsPerSecond),
            'calls/s',
          ),
          row(
            `${target.name}: p50`,
            each.map((round) => round.p50),
            'ms',
          ),
          row(
            `${target.name}: p99`,
            each.map((round) => round.p99),
            'ms',
          ),
        ];
      }),
      figure: throughput
        .slice(1)
        .map(
          (value, index) =>
            `${targets[index + 1]!.name.replace(/^→ /, '')} ${format(value / throughput[0]!)}×`,
        )
        .join('; ')
        .concat(' the direct throughput'),
      target: '',
      met: null,
    });
  }
} finally {
  for (const child of running) child.kill('SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, 500));
  rmSync(scratch, { recursive: true, force: true });
}
