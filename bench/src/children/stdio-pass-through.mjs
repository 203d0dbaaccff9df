// The floor of the gateway's stdio bench: a pass-through with no gate at all. A raw SDK `Server`
// over stdio whose one handler sends each `tools/call` on, unchanged, through a raw SDK `Client`
// to the upstream spawned with the arguments after `--`, writes one line for the call to FILE and
// fsyncs it (what the gateway's ledger pays at least: one fsync a call), then answers with the
// upstream's result. Usage: node stdio-pass-through.mjs FILE -- UPSTREAM-ARGS…
import { fsync, openSync, writeSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const [file, separator, ...upstreamArgs] = process.argv.slice(2);
if (file === undefined || separator !== '--')
  throw new Error('usage: stdio-pass-through.mjs FILE -- UPSTREAM-ARGS…');
const fd = openSync(file, 'a');
const upstream = new Client({ name: 'pass-through', version: '1.0.0' });
await upstream.connect(new StdioClientTransport({ command: process.execPath, args: upstreamArgs }));
const server = new Server({ name: 'pass-through', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => upstream.listTools());
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const result = await upstream.callTool(request.params);
  writeSync(fd, `${JSON.stringify({ call: request.params, result })}\n`);
  await new Promise((resolve, reject) => fsync(fd, (error) => (error ? reject(error) : resolve())));
  return result;
});
await server.connect(new StdioServerTransport());
process.stdin.on('end', async () => {
  await upstream.close();
  process.exit(0);
});
