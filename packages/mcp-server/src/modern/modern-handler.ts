import type { ToolGate } from '@toolgate/core';
import type { ModernServerOptions } from './create-server.js';
import type { ModernHttpHandler } from './http-handler.js';

/**
 * The 2026-07-28 side of `serveHttp`'s endpoint for `gate`'s tools: each request answered by
 * a fresh 2.x server (`@modelcontextprotocol/server`, loaded only now, so a stdio server or a 2025-only
 * endpoint never loads it) over the same gate and grant as the 2025-11-25 side.
 *
 * @example
 * const gate = exposingGate(registry);
 * const endpoint = await serveHttp(() => createMcpServer(gate, { tools: ['oracle'] }), {
 *   modern: await modernHandler(gate, { tools: ['oracle'] }),
 * });
 */
export async function modernHandler(
  gate: ToolGate,
  options: ModernServerOptions,
): Promise<ModernHttpHandler> {
  const { createModernMcpServer, modernTools } = await import('./create-server.js');
  const { modernHttpHandler } = await import('./http-handler.js');
  // Checked now, not at the first request: an unknown tool name fails here.
  createModernMcpServer(gate, options);
  const listed = modernTools(gate, options);
  return modernHttpHandler(() => createModernMcpServer(gate, options), {
    // a call's Mcp-Param-* headers are checked against the tool as tools/list serves it
    toolInputSchema: (tool) => listed.find((served) => served.name === tool)?.inputSchema,
  });
}
