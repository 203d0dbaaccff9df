import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type ContentPart, type JsonValue, type ToolOutput, toolResult } from '@toolgate/core';
import { checkToolOutput, isToolOutput, toJsonValue } from '@toolgate/core/internal';
import { remoteToolFailure } from './remote-error.js';

/**
 * The value of an MCP tool result. A result whose blocks say nothing beyond its JSON maps to a plain
 * value, as ever: `structuredContent` when it is an object and every block is a text holding JSON
 * (the rendering of it MCP asks servers to add); one text block alone holding JSON parsed (a
 * non-object wrapped as `{ result }`); no block, `structuredContent` or `{}`. Any other result —
 * a lone text that is not JSON included, which is words, not a value — keeps every block, in order,
 * as content parts: `toolResult({ output, content })`, the
 * output being its `structuredContent` object or `null`. An `isError` result rejects with a
 * {@link remoteToolFailure}: TOOL_FAILED naming the tool and the server, the server's own code (if
 * any) kept as data beside it.
 */
export function mapResult(
  result: CallToolResult,
  where: { server: string; tool: string },
): JsonValue | ToolOutput {
  const what = `tool "${where.tool}" on MCP server "${where.server}"`;
  if (result.isError) throw remoteToolFailure(result, where);
  const raw = result.structuredContent;
  const structured =
    typeof raw === 'object' && raw !== null && !Array.isArray(raw)
      ? toJsonValue(raw, `the output of ${what}`)
      : undefined;
  const blocks: unknown[] = Array.isArray(result.content) ? result.content : [];
  const only = blocks.length === 1 ? (blocks[0] as { type?: unknown; text?: unknown }) : undefined;
  const onlyText = only?.type === 'text' && typeof only.text === 'string' ? only.text : undefined;
  if (blocks.length === 0) return structured ?? {};
  const parsed = onlyText !== undefined && structured === undefined ? parseJson(onlyText) : undefined;
  if (parsed !== undefined) return parsed;
  if (structured !== undefined && blocks.every(isJsonText)) return structured;
  // Checked (known fields only: no `annotations`, `_meta`, `icons`) and capped by the resolver.
  return toolResult({ output: structured ?? null, content: blocks as ContentPart[] });
}

/** A text block holding JSON: a rendering of `structuredContent`, not words of its own. */
function isJsonText(block: unknown): boolean {
  const { type, text } = block as { type?: unknown; text?: unknown };
  if (type !== 'text' || typeof text !== 'string' || !mayBeJson(text)) return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The JSON a text holds, an object as itself and anything else as `{ result }`; undefined when it is not JSON. */
function parseJson(text: string): JsonValue | undefined {
  if (!mayBeJson(text)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as JsonValue)
    : { result: value as JsonValue };
}

/**
 * A mapped result checked as the resolver returns it — content parts well-formed, the error naming
 * `server` and `tool` — and not capped: the gate's cap station caps every output once.
 */
export function checkMapped(
  output: JsonValue | ToolOutput,
  where: { server: string; tool: string },
): JsonValue | ToolOutput {
  if (!isToolOutput(output)) return output;
  return toolResult(
    checkToolOutput(output, `the output of tool "${where.tool}" on MCP server "${where.server}"`),
  );
}

/**
 * False when `text` cannot be JSON, by its first character after JSON's whitespace: words (nearly
 * every text a tool answers) are told apart without `JSON.parse` throwing, which costs a call more
 * than the rest of mapping its result.
 */
function mayBeJson(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d) continue;
    return jsonStarts.has(code);
  }
  return false;
}

/** The characters a JSON text can start with: `{ [ "`, a digit or `-`, and `t f n` of true, false, null. */
const jsonStarts = new Set([...'{["-0123456789tfn'].map((character) => character.charCodeAt(0)));
