import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type JsonValue, ToolgateError, type ToolResult } from '@toolgate/core';
import { contentResult, errorResult, outputResult } from '@toolgate/mcp-server';

/**
 * The MCP result a client gets for a gate result: content blocks (images, audio, resources, text) as
 * the upstream sent them, in order; a lone text the upstream sent as a text block again; any other
 * output as `structuredContent` plus its JSON text; a failure as an `isError` result `CODE: message`.
 */
export function toCallToolResult(result: ToolResult): CallToolResult {
  if (result.isError) return errorResult(new ToolgateError(result.error.code, result.error.message));
  if (result.content !== undefined) return contentResult(result.output, result.content);
  const text = loneText(result.output);
  if (text !== undefined) return { content: [{ type: 'text', text }] };
  return outputResult(result.output);
}

/** `{ text }` is how the client maps a lone text block that is not JSON: hand it back as that block. */
function loneText(output: JsonValue): string | undefined {
  if (typeof output !== 'object' || output === null || Array.isArray(output)) return undefined;
  const keys = Object.keys(output);
  return keys.length === 1 && keys[0] === 'text' && typeof output.text === 'string' ? output.text : undefined;
}
