import type { CallToolResult, Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import {
  capOutput,
  type JsonValue,
  messageOf,
  type RegistryCallOptions,
  type Tool,
  ToolgateError,
  type ToolRegistry,
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
 * The MCP result of a failure: an `isError` result whose text is the message and whose
 * `structuredContent` is `{ code, message }`, so a toolgate client keeps the code.
 */
export function errorResult(error: unknown): CallToolResult {
  const code = ToolgateError.is(error) ? error.code : 'TOOL_FAILED';
  const message = messageOf(error);
  return { isError: true, structuredContent: { code, message }, content: [{ type: 'text', text: message }] };
}

/**
 * Runs one call through the registry as the agent `agent` granted exactly `tools`, and folds the
 * outcome into an MCP result. Never throws: every failure becomes an `isError` result. A tool the
 * server does not expose is refused before the registry is asked, as UNKNOWN_TOOL naming the
 * `server` and what it does serve (the caller has no manifest to edit). `options` carries the
 * request's signal and progress listener to the tool.
 */
export async function callExposed(
  registry: ToolRegistry,
  grant: { agent: string; tools: readonly string[]; server?: string },
  name: string,
  parameters: unknown,
  maxOutputChars: number,
  options: RegistryCallOptions = {},
): Promise<CallToolResult> {
  if (!grant.tools.includes(name)) {
    const served = grant.tools.length === 0 ? 'nothing' : grant.tools.join(', ');
    return errorResult(
      new ToolgateError(
        'UNKNOWN_TOOL',
        `MCP server "${grant.server ?? 'toolgate-mcp'}" does not serve a tool named ${JSON.stringify(name)}; ` +
          `it serves: ${served} (its tools/list)`,
      ),
    );
  }
  let output: JsonValue;
  try {
    output = await registry.call(grant.agent, { tools: [...grant.tools] }, name, parameters ?? {}, options);
  } catch (error) {
    return errorResult(error);
  }
  const text = JSON.stringify(output);
  return text.length <= maxOutputChars
    ? outputResult(output, text)
    : outputResult(capOutput(output, maxOutputChars));
}

function isObject(value: JsonValue): value is { [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
