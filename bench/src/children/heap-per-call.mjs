/**
 * The heap one recorded call leaves behind, for memory-per-call.bench.ts:
 *
 *   node --expose-gc heap-per-call.mjs '{"store":"file"|"memory","path":FILE,"calls":N}'
 *
 * Calls go through a ToolGate (an agent handle, a rule policy, the cap) recording through a
 * LedgerRecorder into the store. A warm-up of 5,000 calls, then the heap after full collections
 * before and after N more. Prints one JSON line: `{ perCall }` in bytes.
 */
import { defineTool, RulePolicy, ToolGate, ToolRegistry } from '@toolgate/core';
import { FileStore, LedgerRecorder, MemoryStore } from '@toolgate/ledger';
import { z } from 'zod';

const { store: kind, path, calls } = JSON.parse(process.argv[2] ?? '{}');
const store = kind === 'file' ? await FileStore.open(path, { durability: 'none' }) : new MemoryStore();
const oracle = defineTool({
  name: 'oracle',
  description: 'Draws an omen.',
  input: z.object({ seed: z.string().describe('the seed') }),
  run: async ({ seed }) => ({ omen: `the stone remembers ${seed}`, confidence: 0.42 }),
});
let next = 0;
const gate = new ToolGate(new ToolRegistry().register(oracle), {
  policy: new RulePolicy({ default: 'allow', rules: [{ tools: ['oracle'], decision: 'allow' }] }),
  recorder: new LedgerRecorder(store, { runId: 'memory' }),
  callIds: () => `call-${next++}`,
});
const agent = gate.forAgent({ name: 'fortune-teller', tools: ['oracle'] });
async function call(count) {
  for (let index = 0; index < count; index++) await agent.callTool('oracle', { seed: `moss ${index}` });
}
function heap() {
  for (let round = 0; round < 4; round++) globalThis.gc();
  return process.memoryUsage().heapUsed;
}
await call(5_000);
const before = heap();
await call(calls);
const after = heap();
await store.close?.();
process.stdout.write(`${JSON.stringify({ perCall: (after - before) / calls })}\n`);
