// The README's Usage example, as written (readme.test.ts checks that the two are the same text).

import { aiSdkLoopOptions, aiSdkTools } from '@toolgate/ai-sdk'; // ←
import { defineTool, ToolGate, ToolRegistry } from '@toolgate/core';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';

const oracle = defineTool({
  name: 'oracle',
  description: 'Draw an omen from a seed.',
  input: z.object({ seed: z.string().describe('any text') }),
  run: ({ seed }) => ({ omen: `the moss remembers ${seed}` }),
});
const gate = new ToolGate(new ToolRegistry().register(oracle));
const handle = gate.forAgent({ name: 'teller', tools: ['oracle'] });

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};
const model = new MockLanguageModelV4({
  doGenerate: async ({ prompt }) =>
    prompt.at(-1)?.role === 'tool'
      ? {
          content: [{ type: 'text', text: 'The omen is drawn.' }],
          finishReason: { unified: 'stop', raw: undefined },
          usage,
          warnings: [],
        }
      : {
          content: [{ type: 'tool-call', toolCallId: 't1', toolName: 'oracle', input: '{"seed":"moss"}' }],
          finishReason: { unified: 'tool-calls', raw: undefined },
          usage,
          warnings: [],
        },
});

const tools = await aiSdkTools(handle); // ←
const result = await generateText({
  model,
  tools,
  ...aiSdkLoopOptions(tools),
  prompt: 'Draw an omen.',
  stopWhen: stepCountIs(3),
}); // ←
console.log(
  result.text,
  result.steps.flatMap((step) => step.toolResults.map((call) => call.output)),
);
