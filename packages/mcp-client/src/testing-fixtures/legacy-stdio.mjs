// An MCP 2025-11-25 server (the 1.x SDK's McpServer over stdio) that appends every message it reads
// to a log file, one JSON line each (its pid and the method). `shout` upper-cases a text. With
// `strict`, a request before `initialize` is taken for an error and the server exits, as the
// 2025-11-25 lifecycle lets a server do. Usage: node legacy-stdio.mjs LOG_FILE [strict]
import { appendFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import * as z from 'zod';

const [logFile, mode] = process.argv.slice(2);
let initialized = false;

const server = new McpServer({ name: 'legacy-stdio', version: '1.0.0' });
server.registerTool(
  'shout',
  { description: 'Upper-cases a text.', inputSchema: { text: z.string() } },
  async ({ text }) => ({ content: [{ type: 'text', text: text.toUpperCase() }] }),
);

const transport = new StdioServerTransport();
await server.connect(transport);
const read = transport.onmessage;
transport.onmessage = (message, extra) => {
  appendFileSync(logFile, `${JSON.stringify({ pid: process.pid, method: message.method ?? null })}\n`);
  if (message.method === 'initialize') initialized = true;
  else if (mode === 'strict' && !initialized && message.id !== undefined) process.exit(1);
  read?.(message, extra);
};
process.stdin.on('end', () => process.exit(0));
