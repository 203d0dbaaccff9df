// Makes calls through a ToolGate recording to a FileStore (the built packages) and prints the heap
// retained per call: node --expose-gc gate-calls.mjs FILE CALLS. The whole path a gateway or an
// agent runs: an agent handle, a rule policy, the tool's context and its authority, the cap, the
// recorder, the store. A warm-up of 5,000 calls first, then the heap after full collections, before
// and after CALLS more calls.
import { defineTool, RulePolicy, ToolGate, ToolRegistry } from '@toolgate/core';
import { z } from 'zod';
import { FileStore, LedgerRecorder } from '../../dist/index.js';

const [path, calls] = process.argv.slice(2);
const store = await FileStore.open(path, { durability: 'none' });
const oracle = defineTool({
  name: 'oracle',
  description: 'Draws an omen.',
  input: z.object({ seed: z.string().describe('the seed'), depth: z.number().describe('how deep') }),
  run: async ({ seed }, context) => {
    context.reportProgress({ progress: 1 });
    return { omen: `the stone remembers ${seed}`, confidence: 0.42 };
  },
});
const policy = new RulePolicy({ default: 'allow', rules: [{ tools: ['oracle'], decision: 'allow' }] });
let next = 0;
const gate = new ToolGate(new ToolRegistry().register(oracle), {
  policy,
  recorder: new LedgerRecorder(store, { runId: 'memory' }),
  callIds: () => `call-${next++}`,
});
const agent = gate.forAgent({ name: 'fortune-teller', tools: ['oracle'] });
const signal = new AbortController().signal;
async function call(count) {
  for (let index = 0; index < count; index++) {
    const result = await agent.callTool(
      'oracle',
      { seed: `moss ${index}`, depth: 3 },
      { signal, onProgress: () => {} },
    );
    if (result.isError) throw new Error(JSON.stringify(result));
  }
}
function heap() {
  for (let round = 0; round < 4; round++) globalThis.gc();
  return process.memoryUsage().heapUsed;
}
await call(5_000);
const before = heap();
await call(Number(calls));
const after = heap();
await store.close();
process.stdout.write(
  `${JSON.stringify({ perCall: (after - before) / Number(calls), events: store.head().seq })}\n`,
);
