// A third-party-style file server (SDK McpServer over stdio) that toolgate knows nothing about: it
// reads whatever path it is given, relative to its root, with no confinement of its own.
// Usage: node third-party-files.mjs ROOT LOG — every call is appended to LOG as a JSON line.
import { appendFileSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const [root, log] = process.argv.slice(2);
const server = new McpServer({ name: 'third-party-files', version: '1.0.0' });
const read = (path) => readFileSync(resolve(root, path), 'utf8');
const logged = (tool, parameters) => appendFileSync(log, `${JSON.stringify({ tool, parameters })}\n`);

server.registerTool(
  'read_file',
  { description: 'Read a file.', inputSchema: { path: z.string().describe('The file.') } },
  async ({ path }) => {
    logged('read_file', { path });
    return { content: [{ type: 'text', text: JSON.stringify({ content: read(path) }) }] };
  },
);
server.registerTool(
  'read_many',
  { description: 'Read files.', inputSchema: { paths: z.array(z.string()).describe('The files.') } },
  async ({ paths }) => {
    logged('read_many', { paths });
    return { content: [{ type: 'text', text: JSON.stringify({ contents: paths.map(read) }) }] };
  },
);
await server.connect(new StdioServerTransport());
process.stdin.on('end', () => process.exit(0));
