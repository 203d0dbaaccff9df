/**
 * Connecting many MCP servers: `MCPResolver.connect` with 20 stdio servers (each a minimal raw SDK
 * server: spawn, initialize, tools/list) against the raw SDK connecting 20 `Client`s in parallel and
 * listing each one's tools (target ≤ 1.1×). Printed beside: the servers attached one after another
 * (what `connect` did before).
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { MCPResolver } from '@toolgate/mcp-client';
import { format, median, quick, report, row } from './report.js';

const benchDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const count = 20;
const serverArgs = [
  '--input-type=module',
  '-e',
  `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
const server = new McpServer({ name: 'raw', version: '1.0.0' });
server.registerTool('echo', { description: 'Echo.', inputSchema: { value: z.string() } }, async ({ value }) => ({
  content: [{ type: 'text', text: value }],
}));
await server.connect(new StdioServerTransport());
process.stdin.on('end', () => process.exit(0));`,
];
const configs = Array.from({ length: count }, (_, index) => ({
  name: `server-${index}`,
  prefix: `s${index}`,
  command: process.execPath,
  args: serverArgs,
  cwd: benchDir,
}));

async function rawParallel(): Promise<number> {
  const started = performance.now();
  const clients = await Promise.all(
    configs.map(async () => {
      const client = new Client({ name: 'bench', version: '1' });
      await client.connect(
        new StdioClientTransport({ command: process.execPath, args: serverArgs, cwd: benchDir }),
      );
      await client.listTools();
      return client;
    }),
  );
  const milliseconds = performance.now() - started;
  await Promise.all(clients.map((client) => client.close()));
  return milliseconds;
}

async function resolverConnect(): Promise<number> {
  const started = performance.now();
  const resolver = await MCPResolver.connect(configs);
  const milliseconds = performance.now() - started;
  await resolver.close();
  return milliseconds;
}

async function oneAfterAnother(): Promise<number> {
  const started = performance.now();
  const resolver = new MCPResolver();
  for (const config of configs) await resolver.attach(config);
  const milliseconds = performance.now() - started;
  await resolver.close();
  return milliseconds;
}

const sides = [
  { name: `raw SDK: ${count} Clients connected in parallel, tools listed`, fn: rawParallel },
  { name: `MCPResolver.connect, ${count} servers`, fn: resolverConnect },
  { name: `MCPResolver attach one after another (connect before)`, fn: oneAfterAnother },
];
const rounds = sides.map(() => [] as number[]);
await rawParallel(); // warm the module cache of the servers' node processes
for (let round = 0; round < (quick ? 2 : 6); round++) {
  // each round starts with another side, so no side always follows the same one's teardown
  for (let step = 0; step < sides.length; step++) {
    const index = (round + step) % sides.length;
    rounds[index]!.push(await sides[index]!.fn());
  }
}
const rows = sides.map((side, index) => row(side.name, rounds[index]!, 'ms'));
const ratio = median(rounds[1]!) / median(rounds[0]!);
report({
  id: 'mcp-connect',
  title: `mcp-client: connecting ${count} stdio servers`,
  what:
    `${count} stdio servers, each a minimal raw SDK \`McpServer\` with one tool, spawned with this node: time until ` +
    'every one is initialized and its tools listed. `MCPResolver.connect` against the raw SDK connecting as many ' +
    '`Client`s in parallel; printed beside: the servers attached one after another. Sides rotate round by round.',
  rows,
  figure: `${format(ratio)}× the raw SDK in parallel (one after another: ${format(median(rounds[2]!) / median(rounds[0]!))}×)`,
  target: '≤ 1.1×',
  met: quick ? null : ratio <= 1.1,
});
