// toolgate-mcp's createMcpServer over stdio, exposing tools that wait. Usage: node patient-server.mjs <dir>
// - hang: waits until its signal aborts, then writes <dir>/aborted with the reason's code, so a test
//   sees that a client's cancellation reached the tool inside the server.
// - count { steps }: reports progress once per step, then returns { counted: steps }.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { defineTool, ToolRegistry } from '@toolgate/core';
import { createMcpServer } from '@toolgate/mcp-server';
import { z } from 'zod';

const dir = process.argv[2];
const hang = defineTool({
  name: 'hang',
  description: 'Waits until cancelled.',
  input: z.object({}),
  run: (_parameters, context) => {
    writeFileSync(join(dir, 'started'), 'yes');
    return new Promise((_, reject) =>
      context.signal.addEventListener('abort', () => {
        writeFileSync(join(dir, 'aborted'), String(context.signal.reason?.code));
        reject(context.signal.reason);
      }),
    );
  },
});
const count = defineTool({
  name: 'count',
  description: 'Counts, reporting progress.',
  input: z.object({ steps: z.number().describe('How many steps.') }),
  run: async ({ steps }, context) => {
    for (let step = 1; step <= steps; step++) {
      context.reportProgress({ progress: step, total: steps, message: `step ${step}` });
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return { counted: steps };
  },
});
const server = createMcpServer(new ToolRegistry().register(hang).register(count), {
  tools: ['hang', 'count'],
});
process.stdin.on('end', () => process.exit(0));
await server.connect(new StdioServerTransport());
