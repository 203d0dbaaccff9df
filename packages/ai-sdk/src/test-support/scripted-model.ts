import { MockLanguageModelV4 } from 'ai/test';

/** One tool call the scripted model makes. */
export interface ScriptedCall {
  name: string;
  /** The arguments, as an object (sent as JSON) or as raw text (for malformed JSON). */
  input: unknown;
}

/** One model turn: tool calls, or a final text. */
export type ScriptedTurn = { calls: ScriptedCall[] } | { text: string };

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

/**
 * The AI SDK's own mock model (`ai/test`), answering a script turn by turn; after the script it
 * says "done". Tool call ids are `call-<turn>-<index>`, so a run is the same every time.
 */
export function scriptedModel(script: readonly ScriptedTurn[]): MockLanguageModelV4 {
  let turn = 0;
  const next = () => {
    const index = turn++;
    const step = script[index] ?? { text: 'done' };
    if ('text' in step) {
      return {
        content: [{ type: 'text' as const, text: step.text }],
        finishReason: { unified: 'stop' as const, raw: 'stop' },
        usage,
        warnings: [],
      };
    }
    return {
      content: step.calls.map((call, position) => ({
        type: 'tool-call' as const,
        toolCallId: `call-${index}-${position}`,
        toolName: call.name,
        input: typeof call.input === 'string' ? call.input : JSON.stringify(call.input),
      })),
      finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' },
      usage,
      warnings: [],
    };
  };
  return new MockLanguageModelV4({
    doGenerate: async () => next(),
    doStream: async () => {
      const { content, finishReason } = next();
      const parts = [
        { type: 'stream-start' as const, warnings: [] },
        ...content.map((part) =>
          part.type === 'text' ? { type: 'text-delta' as const, id: 't', delta: part.text } : part,
        ),
        { type: 'finish' as const, finishReason, usage },
      ];
      if (content.some((part) => part.type === 'text'))
        parts.splice(1, 0, { type: 'text-start', id: 't' } as never);
      if (content.some((part) => part.type === 'text'))
        parts.splice(parts.length - 1, 0, { type: 'text-end', id: 't' } as never);
      return {
        stream: new ReadableStream({
          start(controller) {
            for (const part of parts) controller.enqueue(part as never);
            controller.close();
          },
        }),
      };
    },
  });
}

/** The tool results the model was shown in its latest prompt, by tool call id. */
export function toolOutputsSeen(model: MockLanguageModelV4): Record<string, unknown> {
  const calls = [...model.doGenerateCalls, ...model.doStreamCalls];
  const prompt = calls.at(-1)?.prompt ?? [];
  const seen: Record<string, unknown> = {};
  for (const message of prompt) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) if (part.type === 'tool-result') seen[part.toolCallId] = part.output;
  }
  return seen;
}
