import { createMcpHandler, inputRequired, McpServer } from '@modelcontextprotocol/server';
import { serveFetchHandler } from '@toolgate/mcp-server/testing';
import * as z from 'zod';

/** A running upstream of the 2026-07-28 era only (the SDK's 2.x handler, `legacy: 'reject'`). */
export interface ModernUpstream {
  url: string;
  /** The era of each request it served. */
  eras: string[];
  /** The `region` of each run of `forecast` (served with `routed`). */
  forecasts: string[];
  close(): Promise<void>;
}

/**
 * Starts a modern-only MCP server over node http with two tools, `shout` (upper-cases `text`) and
 * `confirm` (asks by multi-round trip — an elicitation whose `approve` defaults to true and a
 * `requestState` — and answers with the answer and state the retry carried); with
 * `surface`, also a prompt `greet` (argument `name`) and two resources, `modern://notes/today` and
 * `modern://notes/secret`; with `routed`, also `forecast`, whose `region` is declared `x-mcp-header`.
 */
export async function startModernUpstream(
  options: { surface?: boolean; routed?: boolean } = {},
): Promise<ModernUpstream> {
  const eras: string[] = [];
  const forecasts: string[] = [];
  const handler = createMcpHandler(
    (context) => {
      eras.push(context.era);
      const server = new McpServer({ name: 'modern-upstream', version: '1.0.0' });
      server.registerTool(
        'shout',
        { description: 'Upper-cases a text.', inputSchema: z.object({ text: z.string() }) },
        async ({ text }) => ({ content: [{ type: 'text', text: text.toUpperCase() }] }),
      );
      server.registerTool(
        'confirm',
        { description: 'Asks before it answers.', inputSchema: z.object({}) },
        async (_arguments, context) => {
          const answer = context.mcpReq.inputResponses?.approval;
          if (answer === undefined) {
            const requestedSchema = {
              type: 'object' as const,
              properties: { approve: { type: 'boolean' as const, default: true } },
            };
            return inputRequired({
              inputRequests: { approval: inputRequired.elicit({ message: 'Go ahead?', requestedSchema }) },
              requestState: 'state-of-confirm',
            }) as never;
          }
          const text = JSON.stringify({ answer, state: context.mcpReq.requestState() });
          return { content: [{ type: 'text', text }] };
        },
      );
      if (options.surface) serveSurface(server);
      if (options.routed) serveForecast(server, forecasts);
      return server;
    },
    { legacy: 'reject' },
  );
  const served = await serveFetchHandler((request) => handler.fetch(request));
  return {
    url: served.url,
    eras,
    forecasts,
    close: async () => {
      await handler.close();
      await served.close();
    },
  };
}

function serveForecast(server: McpServer, forecasts: string[]): void {
  server.registerTool(
    'forecast',
    {
      description: 'Forecasts the weather of a region.',
      inputSchema: z.object({ region: z.string().meta({ 'x-mcp-header': 'Region' }) }),
    },
    async ({ region }) => {
      forecasts.push(region);
      return { content: [{ type: 'text', text: `sunny in ${region}` }] };
    },
  );
}

function serveSurface(server: McpServer): void {
  server.registerPrompt(
    'greet',
    { description: 'Greets someone.', argsSchema: z.object({ name: z.string() }) },
    ({ name }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Hello, ${name}` } }] }),
  );
  server.registerResource(
    'today',
    'modern://notes/today',
    { mimeType: 'text/plain', description: "Today's note." },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'a modern note' }] }),
  );
  server.registerResource('secret', 'modern://notes/secret', { mimeType: 'text/plain' }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'a secret note' }],
  }));
}
