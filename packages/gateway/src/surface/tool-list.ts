import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { Gateway } from '../gateway.js';

/**
 * The `tools/list` a client gets: the tools its grant names, as approved, each with the title,
 * annotations, icons and output schema its upstream lists (hints, passed on untouched).
 */
export async function toolListFor(gateway: Gateway, client: string): Promise<McpTool[]> {
  const tools = await gateway.toolsFor(client);
  return tools.map(
    (tool): McpTool => ({
      ...(gateway.resolver.extras(tool.name) as Partial<McpTool>),
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema as McpTool['inputSchema'],
    }),
  );
}
