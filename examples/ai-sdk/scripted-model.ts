import { MockLanguageModelV4 } from 'ai/test';

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

/** One model turn: tool calls (name and arguments), or the final answer. */
export type Turn = { calls: [string, object][] } | { text: string };

/** The AI SDK's own mock model, answering a script turn by turn: no network, no key. */
export function scriptedModel(script: Turn[]): MockLanguageModelV4 {
  let turn = 0;
  return new MockLanguageModelV4({
    doGenerate: async () => {
      const step = script[turn++] ?? { text: '(the script is over)' };
      if ('text' in step)
        return {
          content: [{ type: 'text', text: step.text }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage,
          warnings: [],
        };
      return {
        content: step.calls.map(([toolName, input], index) => ({
          type: 'tool-call' as const,
          toolCallId: `turn-${turn}-call-${index}`,
          toolName,
          input: JSON.stringify(input),
        })),
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage,
        warnings: [],
      };
    },
  });
}
