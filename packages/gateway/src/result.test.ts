import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type ToolResult, toolResult } from '@toolgate/core';
import { mapResult } from '@toolgate/mcp-client/internal';
import { describe, expect, it } from 'vitest';
import { toCallToolResult } from './result.js';

const where = { server: 'upstream', tool: 'say' };

/** What the gateway's client gets for what an upstream answered: mcp-client's mapping, then the gateway's. */
function relay(upstream: CallToolResult): CallToolResult {
  const mapped = mapResult(upstream, where);
  const result = (
    typeof mapped === 'object' && mapped !== null && 'content' in mapped && Array.isArray(mapped.content)
      ? { isError: false, output: mapped.output, content: mapped.content }
      : { isError: false, output: mapped }
  ) as ToolResult;
  return toCallToolResult(result);
}

describe('toCallToolResult: an upstream text reaches the client as the upstream sent it', () => {
  it('passes a lone plain text through as the same text block, with nothing wrapped or unwrapped', () => {
    expect(relay({ content: [{ type: 'text', text: 'just words' }] })).toEqual({
      content: [{ type: 'text', text: 'just words' }],
    });
  });

  it('keeps an upstream JSON object that happens to be { "text": … } as that JSON, not as its text', () => {
    const answered = relay({ content: [{ type: 'text', text: '{"text":"hi"}' }] });
    expect(answered.structuredContent).toEqual({ text: 'hi' });
    expect(answered.content).toEqual([{ type: 'text', text: '{"text":"hi"}' }]);
  });

  it('hands content parts back in order', () => {
    const parts = [
      { type: 'text' as const, text: 'the grove:' },
      { type: 'image' as const, data: 'aGk=', mimeType: 'image/png' },
    ];
    expect(
      toCallToolResult({ isError: false, ...toolResult({ content: parts }) } as ToolResult).content,
    ).toEqual(parts);
  });
});
