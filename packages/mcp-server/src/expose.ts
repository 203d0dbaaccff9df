import type { CallToolResult, Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import {
  type ContentPart,
  capOutput,
  capToolOutput,
  defaultMaxContentBytes,
  isToolOutput,
  type JsonValue,
  messageOf,
  type OutputCaps,
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

/**
 * Runs one call through the registry as the agent `agent` granted exactly `tools`, and folds the
 * outcome into an MCP result. Never throws: every failure becomes an `isError` result. A tool the
 * server does not expose is refused before the registry is asked, as UNKNOWN_TOOL naming the
 * `server` and what it does serve (the caller has no manifest to edit). Content parts are sent as
 * MCP content blocks ({@link contentResult}), each capped on its own: text by `maxOutputChars`,
 * binary parts by `maxContentBytes` (an over-cap part is replaced by a text part saying so).
 * `options` carries the request's signal and progress listener to the tool.
 */
export async function callExposed(
  registry: ToolRegistry,
  grant: { agent: string; tools: readonly string[]; server?: string },
  name: string,
  parameters: unknown,
  caps: number | OutputCaps,
  options: RegistryCallOptions = {},
): Promise<CallToolResult> {
  const { maxOutputChars, maxContentBytes } =
    typeof caps === 'number' ? { maxOutputChars: caps, maxContentBytes: defaultMaxContentBytes } : caps;
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
  let returned: Awaited<ReturnType<ToolRegistry['call']>>;
  try {
    returned = await registry.call(grant.agent, { tools: [...grant.tools] }, name, parameters ?? {}, options);
  } catch (error) {
    return errorResult(error);
  }
  if (isToolOutput(returned)) {
    const capped = capToolOutput(returned, { maxOutputChars, maxContentBytes });
    return contentResult(capped.output, capped.content);
  }
  const output = returned;
  const text = JSON.stringify(output);
  return text.length <= maxOutputChars
    ? outputResult(output, text)
    : outputResult(capOutput(output, maxOutputChars));
}

function isObject(value: JsonValue): value is { [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
