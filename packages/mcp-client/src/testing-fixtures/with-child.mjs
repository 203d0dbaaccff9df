// A real MCP server (SDK McpServer over stdio) that starts a child process of its own, as servers
// wrapping a browser or a language server do. The child is unref'd, so the server itself exits when
// its stdin ends — leaving the child behind unless the client kills the server's process group.
import { spawn } from 'node:child_process';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

const child = spawn('sleep', ['300'], { stdio: 'ignore' });
child.unref();
const server = new McpServer({ name: 'with-child', version: '1.0.0' });
server.registerTool('child', { description: "The pid of the server's child." }, async () => ({
  content: [{ type: 'text', text: JSON.stringify({ pid: child.pid }) }],
  structuredContent: { pid: child.pid },
}));
server.registerTool('hang', { description: 'Never answer.' }, () => new Promise(() => {}));
server.registerTool('exit', { description: 'Exit mid-call.' }, async () => process.exit(3));
await server.connect(new StdioServerTransport());
process.stdin.on('end', () => process.exit(0));
