/**
 * toolgate inside the Vercel AI SDK loop, offline. A scribe may draw omens and write notes (a
 * note needs a person's approval); the scripted model also tries a tool it was never granted. The
 * run goes through `generateText` twice (before and after the approval) and the ledger is printed.
 *
 *   pnpm --filter @toolgate/example-ai-sdk example
 */
import { aiSdkLoopOptions, aiSdkTools } from '@toolgate/ai-sdk';
import { defineTool, RulePolicy, ToolGate, ToolRegistry } from '@toolgate/core';
import { LedgerRecorder, MemoryStore, readAll } from '@toolgate/ledger';
import { generateText, type ModelMessage, stepCountIs } from 'ai';
import { z } from 'zod';
import { scriptedModel } from './scripted-model.js';

const notes: string[] = [];
const registry = new ToolRegistry()
  .register(
    defineTool({
      name: 'oracle',
      description: 'Draw an omen from a seed.',
      input: z.object({ seed: z.string().describe('any text') }),
      run: ({ seed }) => ({ omen: `the moss remembers ${seed}` }),
      parallelSafe: true,
    }),
  )
  .register(
    defineTool({
      name: 'write_note',
      description: 'Write a note down.',
      input: z.object({ text: z.string().describe('the note') }),
      run: ({ text }) => ({ written: notes.push(text) }),
    }),
  );
const policy = new RulePolicy({
  default: 'allow',
  rules: [{ tools: ['write_note'], decision: 'ask', reason: 'a note needs a person' }],
});
const store = new MemoryStore();
const gate = new ToolGate(registry, { policy, recorder: new LedgerRecorder(store, { runId: 'example' }) });
const scribe = gate.forAgent({ name: 'scribe', tools: ['oracle', 'write_note'] });

const model = scriptedModel([
  {
    calls: [
      ['oracle', { seed: 'north stones' }],
      ['delete_everything', {}],
    ],
  },
  { calls: [['write_note', { text: 'the moss remembers the north stones' }]] },
  { text: 'I drew the omen and wrote it down.' },
]);

// The glue: three lines.
const tools = await aiSdkTools(scribe);
const messages: ModelMessage[] = [{ role: 'user', content: 'Draw an omen and note it.' }];
const first = await generateText({
  model,
  tools,
  ...aiSdkLoopOptions(tools),
  messages,
  stopWhen: stepCountIs(5),
});

// The model asked to write a note; policy says ask, so the AI SDK asks the app.
const request = first.steps
  .flatMap((step) => step.content)
  .find((part) => part.type === 'tool-approval-request');
if (!request) throw new Error('expected an approval request');
console.log(`approval asked for ${request.toolCall.toolName}: yes (the person says "fine")`);
messages.push(...first.response.messages, {
  role: 'tool',
  content: [
    { type: 'tool-approval-response', approvalId: request.approvalId, approved: true, reason: 'fine' },
  ],
});
const second = await generateText({
  model,
  tools,
  ...aiSdkLoopOptions(tools),
  messages,
  stopWhen: stepCountIs(5),
});
console.log(`model: ${second.text}`);
console.log(`notes: ${JSON.stringify(notes)}`);

console.log('\nledger:');
for (const event of await readAll(store.read())) {
  const payload = event.payload as {
    tool?: string;
    decision?: string;
    reason?: string;
    error?: { code: string };
  };
  const detail =
    event.kind === 'policy.decided'
      ? `${payload.decision} (${payload.reason})`
      : event.kind === 'tool.returned'
        ? (payload.error?.code ?? 'ok')
        : '';
  console.log(`  ${event.seq} ${event.actor} ${event.kind} ${payload.tool} ${detail}`);
}
