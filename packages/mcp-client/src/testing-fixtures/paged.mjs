// A low-level SDK Server that lists 250 tools in pages of 100 (tool_0 … tool_249).
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const tools = Array.from({ length: 250 }, (_, index) => ({
  name: `tool_${index}`,
  description: `Tool number ${index}.`,
  inputSchema: { type: 'object', properties: {} },
}));
const server = new Server({ name: 'paged', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, (request) => {
  const start = Number(request.params?.cursor ?? 0);
  const next = start + 100 < tools.length ? { nextCursor: String(start + 100) } : {};
  return { tools: tools.slice(start, start + 100), ...next };
});
server.setRequestHandler(CallToolRequestSchema, (request) => ({
  content: [],
  structuredContent: { called: request.params.name },
}));
await server.connect(new StdioServerTransport());
process.stdin.on('end', () => process.exit(0));
