// A real MCP server (SDK McpServer over stdio) that answers `initialize` only once a file exists:
// node gated-start.mjs WAIT_FILE [MARK_FILE] — writes MARK_FILE (when given) as soon as it starts,
// then reads stdin (and so answers) only after WAIT_FILE appears. Serves `echo`.
import { existsSync, writeFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const [waitFile, markFile] = process.argv.slice(2);
if (markFile) writeFileSync(markFile, `${process.pid}\n`);
while (waitFile && !existsSync(waitFile)) await new Promise((resolve) => setTimeout(resolve, 20));
const server = new McpServer({ name: 'gated-start', version: '1.0.0' });
server.registerTool(
  'echo',
  { description: 'Echo the parameters back.', inputSchema: { value: z.string().describe('Anything.') } },
  async ({ value }) => ({
    content: [{ type: 'text', text: JSON.stringify({ value }) }],
    structuredContent: { value },
  }),
);
process.stdin.on('end', () => process.exit(0));
await server.connect(new StdioServerTransport());
