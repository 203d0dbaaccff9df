/**
 * The heap a stream of recorded calls leaves behind at 10,000, 100,000 and 1,000,000 calls, for
 * memory-scale.bench.ts:
 *
 *   node --expose-gc heap-at-scale.mjs '{"store":"file"|"memory","path":FILE,"marks":[10000,100000,1000000]}'
 *
 * Calls go through a ToolGate (an agent handle, a rule policy, the cap) recording through a
 * LedgerRecorder into the store, as a gateway's do (a client's grant, a remote-shaped output with a
 * content part). A warm-up of 5,000 calls, then the heap after full collections at each mark.
 * Prints one JSON line: `{ marks: [{ calls, perCall, heapUsed }] }`, bytes a call counted from the
 * warm-up.
 */
import { defineTool, RulePolicy, ToolGate, ToolRegistry, toolResult } from '@toolgate/core';
import { FileStore, LedgerRecorder, MemoryStore } from '@toolgate/ledger';
import { z } from 'zod';

const { store: kind, path, marks } = JSON.parse(process.argv[2] ?? '{}');
const store = kind === 'file' ? await FileStore.open(path, { durability: 'none' }) : new MemoryStore();
const note = defineTool({
  name: 'mine__note',
  description: 'Echoes a note.',
  input: z.object({ text: z.string().describe('the note') }),
  run: async ({ text }) =>
    toolResult({ output: { text: `note: ${text}` }, content: [{ type: 'text', text: `note: ${text}` }] }),
});
let next = 0;
const gate = new ToolGate(new ToolRegistry().register(note), {
  policy: new RulePolicy({ default: 'deny', rules: [{ tools: ['mine__*'], decision: 'allow' }] }),
  recorder: new LedgerRecorder(store, { runId: 'scale' }),
  callIds: () => `call-${next++}`,
});
const agent = gate.forAgent({ name: 'desktop', tools: ['mine__note'] });
async function call(count) {
  for (let index = 0; index < count; index++) {
    const result = await agent.callTool('mine__note', { text: `moss ${index}` });
    if (result.isError) throw new Error(`call ${index} failed: ${JSON.stringify(result)}`);
  }
}
function heap() {
  for (let round = 0; round < 4; round++) globalThis.gc();
  return process.memoryUsage().heapUsed;
}
await call(5_000);
const base = heap();
let done = 0;
const measured = [];
for (const mark of marks) {
  await call(mark - done);
  done = mark;
  const heapUsed = heap();
  measured.push({ calls: mark, heapUsed, perCall: (heapUsed - base) / mark });
}
await store.close?.();
process.stdout.write(`${JSON.stringify({ marks: measured })}\n`);
