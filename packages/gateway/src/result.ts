import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ToolgateError, type ToolResult } from '@toolgate/core';
import { contentResult, errorResult, outputResult } from '@toolgate/mcp-server/internal';

/**
 * The MCP result a client gets for a gate result: content blocks (images, audio, resources, text —
 * a lone text the upstream sent among them) as the upstream sent them, in order; any other output
 * as `structuredContent` plus its JSON text; a failure as an `isError` result `CODE: message`.
 */
export function toCallToolResult(result: ToolResult): CallToolResult {
  if (result.isError) return errorResult(new ToolgateError(result.error.code, result.error.message));
  if (result.content !== undefined) return contentResult(result.output, result.content);
  return outputResult(result.output);
}
