// An MCP 2025-11-25 server (the 1.x SDK's McpServer over stdio) whose tool asks its client by
// elicitation, the legacy way: `book` elicits a form whose every field has a default, and answers
// with the action and content it got back, as JSON. Usage: node eliciting.mjs
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

const server = new McpServer({ name: 'eliciting', version: '1.0.0' });

server.registerTool(
  'book',
  { description: 'Books a table, asking its client for the details.' },
  async () => {
    const answer = await server.server.elicitInput({
      message: 'Book a table?',
      requestedSchema: {
        type: 'object',
        properties: {
          name: { type: 'string', default: 'Ada' },
          guests: { type: 'integer', default: 2 },
          seating: { type: 'string', enum: ['inside', 'terrace'], default: 'terrace' },
          confirmed: { type: 'boolean', default: true },
        },
      },
    });
    return { content: [{ type: 'text', text: JSON.stringify(answer) }] };
  },
);

const transport = new StdioServerTransport();
process.stdin.on('end', () => process.exit(0));
await server.connect(transport);
