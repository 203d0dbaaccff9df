import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ToolgateError, type ToolResult } from '@toolgate/core';
import { contentResult, errorResult, outputResult } from '@toolgate/mcp-server/internal';

/**
 * The MCP result a client gets for a gate result: content blocks (images, audio, resources, text —
 * a lone text the upstream sent among them) as the upstream sent them, in order; any other output
 * as `structuredContent` plus its JSON text; a failure as an `isError` result `CODE: message` (with
 * `{ code, message }` as `structuredContent`, unless the tool declares an output schema).
 */
export function toCallToolResult(result: ToolResult, tool: { outputSchema?: unknown } = {}): CallToolResult {
  if (result.isError) {
    const error = errorResult(new ToolgateError(result.error.code, result.error.message));
    // a client checks any structuredContent against the tool's output schema: an error carries none then
    if (tool.outputSchema !== undefined) delete error.structuredContent;
    return error;
  }
  if (result.content !== undefined) return contentResult(result.output, result.content);
  return outputResult(result.output);
}
