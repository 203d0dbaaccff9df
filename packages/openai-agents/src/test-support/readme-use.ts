// The README's Use example, as written (readme.test.ts checks that the two are the same text).
import { Agent, run, setTracingDisabled } from '@openai/agents';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents/testing';
import { defineTool, ToolGate, ToolRegistry } from '@toolgate/core';
import { agentsTools } from '@toolgate/openai-agents';
import { z } from 'zod';

setTracingDisabled(true); // this example runs offline
const oracle = defineTool({
  name: 'oracle',
  description: 'Draws an omen from a seed.',
  input: z.object({ seed: z.string().describe('Any text.') }),
  run: ({ seed }) => ({ omen: `the ${seed} remembers` }),
});
// A scripted model plays the LLM here; use any Agents model (such as 'gpt-5') instead.
const model = new ScriptedModel([
  [
    functionCall('oracle', { seed: 'moss' }, { callId: 'c1' }),
    functionCall('shell', { command: 'ls' }, { callId: 'c2' }),
  ],
  [assistantMessage('The moss remembers; the shell is not mine to use.')],
]);

// The lines you write:
const gate = new ToolGate(new ToolRegistry().register(oracle));
const { tools, runOptions } = await agentsTools(gate.forAgent({ name: 'teller', tools: ['oracle'] }));
const agent = new Agent({ name: 'teller', instructions: 'Read the omens.', model, tools });
const result = await run(agent, 'What does the moss say?', runOptions);
console.log(result.finalOutput);
