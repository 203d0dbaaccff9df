/**
 * toolgate-gateway against calling the upstream straight: one `tools/call` from a raw SDK client over
 * stdio through the gateway (grant → policy → ledger with `batch` durability, one fsync a call → the
 * upstream over stdio) vs the same call from the same client straight to the same upstream, and, in
 * the same rounds, the floor of any gate in between: a raw SDK server passing the call through a raw
 * SDK client to the same upstream (one more stdio hop) and fsyncing one line for it
 * (`children/stdio-pass-through.mjs`). Issue 27 asks ≤ 3× the direct call. Then the gateway's cold
 * start (two upstreams) to its first `tools/list` answer.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { compareLatency } from './compare.js';
import { format, median, quick, report, row } from './report.js';
import { startToToolsList } from './stdio-startup.js';

const benchDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const gatewayCli = join(
  dirname(createRequire(import.meta.url).resolve('@toolgate/gateway/package.json')),
  'dist',
  'cli.js',
);

/** A minimal raw SDK upstream with one tool, as the SDK's README writes one. */
const upstreamArgs = [
  '--input-type=module',
  '-e',
  `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
const server = new McpServer({ name: 'raw-upstream', version: '1.0.0' });
server.registerTool('echo', { description: 'Echoes its text.', inputSchema: { text: z.string() } },
  async ({ text }) => ({ content: [{ type: 'text', text: 'echo: ' + text }] }));
await server.connect(new StdioServerTransport());
process.stdin.on('end', () => process.exit(0));`,
];

const scratch = mkdtempSync(join(tmpdir(), 'toolgate-gateway-bench-'));
const upstream = (name: string) =>
  `  ${name}: { command: ${JSON.stringify(process.execPath)}, args: ${JSON.stringify(upstreamArgs)}, cwd: ${JSON.stringify(benchDir)}, prefix: ${name} }`;
const config = join(scratch, 'gateway.yaml');
writeFileSync(
  config,
  `servers:\n${upstream('one')}\n${upstream('two')}\nclients:\n  bench: { tools: ["one__*", "two__*"] }\nstdio: bench\nledger: ./gateway.ledger.jsonl\ndurability: batch\n`,
);
const stdio = (args: string[]) =>
  new StdioClientTransport({ command: process.execPath, args, cwd: benchDir });

// 1. One call, through the gateway vs straight to the upstream.
const direct = new Client({ name: 'bench', version: '1' });
await direct.connect(stdio(upstreamArgs));
const throughGateway = new Client({ name: 'bench', version: '1' });
await throughGateway.connect(stdio([gatewayCli, '--config', config]));
const throughFloor = new Client({ name: 'bench', version: '1' });
await throughFloor.connect(
  stdio([
    join(benchDir, 'src', 'children', 'stdio-pass-through.mjs'),
    join(scratch, 'pass-through.jsonl'),
    '--',
    ...upstreamArgs,
  ]),
);
let count = 0;
const expectEcho = (result: Awaited<ReturnType<Client['callTool']>>, text: string) => {
  const first = (result.content as Array<{ text?: string }>)[0]?.text;
  if (result.isError || first !== `echo: ${text}`)
    throw new Error(`unexpected result ${JSON.stringify(result)}`);
};
const viaDirect = async () => {
  const text = `t${count++}`;
  expectEcho(await direct.callTool({ name: 'echo', arguments: { text } }), text);
};
const viaGateway = async () => {
  const text = `t${count++}`;
  expectEcho(await throughGateway.callTool({ name: 'one__echo', arguments: { text } }), text);
};
const viaFloor = async () => {
  const text = `t${count++}`;
  expectEcho(await throughFloor.callTool({ name: 'echo', arguments: { text } }), text);
};
await compareLatency({
  id: 'gateway-stdio-call',
  title: 'Gateway: one tools/call through toolgate-gateway vs straight to the upstream',
  what:
    'A raw SDK client calls `echo` over stdio: through `toolgate-gateway` (grant, policy, ledger with batch ' +
    'durability: one fsync a call, the upstream over stdio) vs straight to the same raw SDK upstream; beside ' +
    'them the floor of any gate in between: a raw SDK Server passing the call through a raw SDK Client to the ' +
    'same upstream (one more stdio hop) and fsyncing one line a call, no gate at all.',
  anchor: { name: 'raw SDK Client → upstream', fn: viaDirect },
  subject: { name: 'raw SDK Client → toolgate-gateway → upstream', fn: viaGateway },
  others: [{ name: 'floor: raw SDK Server → raw SDK Client → upstream, + 1 fsync', fn: viaFloor }],
  maxRatio: 3,
  note: ([direct, gateway, floor]) =>
    `the gateway adds ${format(gateway!.median - direct!.median)} µs to the direct call, ` +
    `${format(gateway!.median - floor!.median)} µs to the floor (${format(gateway!.median / floor!.median)}× it)` +
    (floor!.median / direct!.median > 3
      ? `; ≤ 3× is below the floor: one more stdio hop and one fsync alone take ${format(floor!.median / direct!.median)}× the direct call`
      : ''),
});
await throughFloor.close();
await throughGateway.close();
await direct.close();

// 2. Cold start to the first tools/list answer, with two upstreams.
const startup = { gateway: [] as number[], upstream: [] as number[] };
for (let round = 0; round < (quick ? 2 : 7); round++) {
  startup.upstream.push(await startToToolsList(upstreamArgs, benchDir));
  startup.gateway.push(await startToToolsList([gatewayCli, '--config', config], benchDir));
}
report({
  id: 'gateway-startup',
  title: 'Gateway: cold start to first tools/list answer, two upstreams',
  what: 'Spawn `toolgate-gateway` over stdio (it opens the ledger and starts two raw SDK upstreams), send initialize, initialized and tools/list at once, wait for the answer; beside it, one raw upstream alone.',
  rows: [
    row('one raw SDK upstream alone', startup.upstream, 'ms'),
    row('toolgate-gateway, two upstreams', startup.gateway, 'ms'),
  ],
  figure: `${format(median(startup.gateway))} ms`,
  target: '',
  met: null,
});
rmSync(scratch, { recursive: true, force: true });
