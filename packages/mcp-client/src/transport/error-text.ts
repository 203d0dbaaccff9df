import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { capText } from '@toolgate/core/internal';

/**
 * An `isError` tool result with the text a model would read cut to `maxChars` in all, with core's
 * truncation marker: its text blocks (together) and its `structuredContent` `code` and `message`.
 * Any other result is returned as it is.
 */
export function capErrorResult(result: CallToolResult, maxChars: number): CallToolResult {
  if (!result.isError) return result;
  let room = maxChars;
  const content = (Array.isArray(result.content) ? result.content : []).flatMap((block) => {
    if (block.type !== 'text' || typeof block.text !== 'string') return [block];
    if (room <= 0) return [];
    const capped = capText(block.text, room);
    room -= Math.min(block.text.length, room);
    return [{ ...block, text: capped.text }];
  });
  const capped: CallToolResult = { ...result, content };
  const structured = result.structuredContent;
  if (typeof structured === 'object' && structured !== null && !Array.isArray(structured)) {
    const fields: Record<string, unknown> = { ...structured };
    for (const key of ['code', 'message']) {
      if (typeof fields[key] === 'string') fields[key] = capText(fields[key] as string, maxChars).text;
    }
    capped.structuredContent = fields;
  }
  return capped;
}

/** Error text from a server (a JSON-RPC error message, an HTTP error body) cut to `maxChars`, with a marker. */
export function capErrorText(text: string, maxChars: number): string {
  return capText(text, maxChars).text;
}
