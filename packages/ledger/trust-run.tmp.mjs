// A run the Trust walk-through starts from: the policy recorded, then calls (N from argv), appended to run.ledger.jsonl.
import { defineTool, RulePolicy, ToolGate, ToolRegistry } from '@toolgate/core';
import { FileStore, LedgerRecorder } from '@toolgate/ledger';
import { z } from 'zod';

const oracle = defineTool({
  name: 'oracle',
  description: 'Draw a cryptic omen from a seed.',
  input: z.object({ seed: z.string() }),
  run: ({ seed }) => ({ omen: `the moss remembers ${seed}` }),
});
const [file, runId, seeds] = process.argv.slice(2);
const policy = { default: 'deny', rules: [{ tools: ['oracle'], decision: 'allow' }] };
const store = await FileStore.open(file);
const recorder = new LedgerRecorder(store, { runId });
await recorder.recordPolicy(policy);
let calls = 0;
const gate = new ToolGate(new ToolRegistry().register(oracle), {
  recorder,
  policy: new RulePolicy(policy),
  callIds: () => `call-${++calls}`,
});
const teller = gate.forAgent({ name: 'teller', tools: ['oracle'] });
for (const seed of seeds.split(',')) await teller.callTool('oracle', { seed });
await store.close();
