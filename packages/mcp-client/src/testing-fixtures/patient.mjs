// An MCP server (the SDK's McpServer over stdio) with tools that wait. Usage: node patient.mjs <dir>
// - hang: never answers; when its request is cancelled (its signal aborts) it writes <dir>/aborted
//   with the abort reason, so a test can see that the server's own handler saw the cancellation.
// - count { steps }: sends a progress notification per step (when the client gave a token), then
//   answers { counted: steps }.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const dir = process.argv[2];
const server = new McpServer({ name: 'patient', version: '1.0.0' });

server.registerTool('hang', { description: 'Waits until cancelled.', inputSchema: {} }, (_args, extra) => {
  writeFileSync(join(dir, 'started'), 'yes');
  return new Promise(() => {
    extra.signal.addEventListener('abort', () =>
      writeFileSync(join(dir, 'aborted'), String(extra.signal.reason)),
    );
  });
});

server.registerTool(
  'count',
  {
    description: 'Counts, reporting progress.',
    inputSchema: { steps: z.number().describe('How many steps.') },
  },
  async ({ steps }, extra) => {
    const token = extra._meta?.progressToken;
    for (let step = 1; step <= steps; step++) {
      if (token !== undefined)
        await extra.sendNotification({
          method: 'notifications/progress',
          params: { progressToken: token, progress: step, total: steps, message: `step ${step}` },
        });
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return {
      content: [{ type: 'text', text: JSON.stringify({ counted: steps }) }],
      structuredContent: { counted: steps },
    };
  },
);

const transport = new StdioServerTransport();
process.stdin.on('end', () => process.exit(0));
await server.connect(transport);
