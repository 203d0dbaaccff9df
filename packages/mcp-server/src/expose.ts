import type { CallToolResult, Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import {
  type CallOptions,
  type ContentPart,
  type Grant,
  type JsonValue,
  messageOf,
  type Tool,
  type ToolGate,
  ToolgateError,
} from '@toolgate/core';

/**
 * The MCP form of a registry tool: its JSON Schema and description as they are, and `readOnlyHint`
 * from `parallelSafe` (a hint for clients; toolgate's own client never trusts it).
 */
export function toMcpTool(tool: Tool): McpTool {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema as McpTool['inputSchema'],
    annotations: { readOnlyHint: tool.parallelSafe },
  };
}

/**
 * The MCP result of a tool output: the output as `structuredContent` (wrapped as `{ result }` when it
 * is not an object) plus the same JSON as one text block, so clients that read either agree.
 */
export function outputResult(output: JsonValue, text = JSON.stringify(output)): CallToolResult {
  const structured = isObject(output) ? output : { result: output };
  return { structuredContent: structured, content: [{ type: 'text', text }] };
}

/**
 * The MCP result of a result with content parts: the parts, in order, as MCP content blocks (the
 * same shapes), and the output, unless it is `null`, as `structuredContent` (wrapped as `{ result }`
 * when it is not an object). No JSON text block is added, so a client sees exactly the parts.
 */
export function contentResult(output: JsonValue, content: readonly ContentPart[]): CallToolResult {
  const blocks = content.map((part) => ({ ...part })) as CallToolResult['content'];
  if (output === null) return { content: blocks };
  return { structuredContent: isObject(output) ? output : { result: output }, content: blocks };
}

/**
 * The MCP result of a failure: an `isError` result whose text is `CODE: message` (for clients that
 * read only text) and whose `structuredContent` is `{ code, message }`, so a toolgate client keeps
 * the code as data.
 */
export function errorResult(error: unknown): CallToolResult {
  const code = ToolgateError.is(error) ? error.code : 'TOOL_FAILED';
  const message = messageOf(error);
  return {
    isError: true,
    structuredContent: { code, message },
    content: [{ type: 'text', text: `${code}: ${message}` }],
  };
}

/** One call of an exposed tool, as {@link callExposed} takes it. */
export interface ExposedCall {
  /** The server's gate: every call of the server runs through it. */
  gate: ToolGate;
  /** The server's grant: exactly the tools it exposes (see {@link exposedGrant}). */
  grant: Grant;
  tool: string;
  parameters: unknown;
  /** The request's signal, progress listener and deadline, for the tool. */
  options?: CallOptions;
}

/**
 * Runs one call through the server's gate, under the server's grant, and folds the result into an
 * MCP result. Never throws: every failure becomes an `isError` result. A tool the server does not
 * expose is refused by the grant before anything else, as UNKNOWN_TOOL naming the server and what
 * it does serve (the caller has no manifest to edit). Content parts are sent as MCP content blocks
 * ({@link contentResult}); the gate's limits have capped the output and each part, once.
 */
export async function callExposed(call: ExposedCall): Promise<CallToolResult> {
  const result = await call.gate.call(
    { tool: call.tool, parameters: call.parameters ?? {} },
    { ...call.options, grant: call.grant },
  );
  if (result.isError) return errorResult(new ToolgateError(result.error.code, result.error.message));
  if (result.content !== undefined) return contentResult(result.output, result.content);
  return outputResult(result.output);
}

function isObject(value: JsonValue): value is { [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
