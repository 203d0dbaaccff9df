import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type JsonValue, ToolgateError, type ToolgateErrorCode, toJsonValue } from '@toolgate/core';

/** Codes a remote error result may carry through; anything else becomes TOOL_FAILED. */
const remoteCodes = new Set<ToolgateErrorCode>([
  'INVALID_PARAMETERS',
  'TOOL_FAILED',
  'INVALID_OUTPUT',
  'TIMEOUT',
  'PATH_OUTSIDE_ROOT',
  'INVALID_PATH',
  'NOT_FOUND',
  'NETWORK_REFUSED',
  'NETWORK_FAILED',
  'COMMAND_FAILED',
  'PERMISSION_DENIED',
]);

/**
 * The plain value of an MCP tool result: `structuredContent` when it is an object, else the first
 * text block parsed as JSON (a non-object wrapped as `{ result }`, unparseable text as `{ text }`),
 * no content as `{}`. An `isError` result rejects with a ToolgateError the model can read: the
 * remote toolgate code and message when the server sent them, else TOOL_FAILED with its text.
 */
export function mapResult(result: CallToolResult, where: { server: string; tool: string }): JsonValue {
  const what = `tool "${where.tool}" on MCP server "${where.server}"`;
  if (result.isError) throw remoteError(result, what);
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

function remoteError(result: CallToolResult, what: string): ToolgateError {
  const structured = result.structuredContent as { code?: unknown; message?: unknown } | undefined;
  if (
    typeof structured?.code === 'string' &&
    typeof structured.message === 'string' &&
    remoteCodes.has(structured.code as ToolgateErrorCode)
  ) {
    return new ToolgateError(structured.code as ToolgateErrorCode, structured.message);
  }
  const texts = (Array.isArray(result.content) ? result.content : [])
    .filter((block) => block.type === 'text')
    .map((block) => (block as { text: string }).text);
  const message = texts.join('\n').trim() || 'it reported an error without a message';
  return new ToolgateError('TOOL_FAILED', `${what} failed: ${message}`);
}
