import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type JsonValue, toJsonValue } from '@toolgate/core';
import { remoteToolFailure } from './remote-error.js';

/**
 * The plain value of an MCP tool result: `structuredContent` when it is an object, else the first
 * text block parsed as JSON (a non-object wrapped as `{ result }`, unparseable text as `{ text }`),
 * no content as `{}`. An `isError` result rejects with a {@link remoteToolFailure}: TOOL_FAILED
 * naming the tool and the server, the server's own code (if any) kept as data beside it.
 */
export function mapResult(result: CallToolResult, where: { server: string; tool: string }): JsonValue {
  const what = `tool "${where.tool}" on MCP server "${where.server}"`;
  if (result.isError) throw remoteToolFailure(result, where);
  const structured = result.structuredContent;
  if (typeof structured === 'object' && structured !== null && !Array.isArray(structured)) {
    return toJsonValue(structured, `the output of ${what}`);
  }
  const content = Array.isArray(result.content) ? result.content : [];
  const text = content.find((block) => block.type === 'text');
  if (text && text.type === 'text') return parseText(text.text);
  if (content.length === 0) return {};
  return { content: toJsonValue(content, `the output of ${what}`) };
}

function parseText(text: string): JsonValue {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { text };
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as JsonValue)
    : { result: value as JsonValue };
}
