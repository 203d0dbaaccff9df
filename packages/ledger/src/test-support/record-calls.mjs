// Records calls through a LedgerRecorder into a FileStore (the built package) and prints the heap
// retained per call: node --expose-gc record-calls.mjs FILE CALLS. A warm-up of 5,000 calls first,
// then the heap after full collections, before and after CALLS more calls.
import { FileStore, LedgerRecorder } from '../../dist/index.js';

const [path, calls] = process.argv.slice(2);
const store = await FileStore.open(path, { durability: 'none' });
const recorder = new LedgerRecorder(store, { runId: 'memory' });
const parameters = { seed: 'moss on the north stones', depth: 3 };
const output = { omen: 'the stone remembers what the river forgot', confidence: 0.42 };
let next = 0;
async function record(count) {
  for (let index = 0; index < count; index++) {
    const base = { callId: `call-${next++}`, agent: 'fortune-teller', tool: 'oracle' };
    await recorder.toolCalled({ ...base, parameters });
    await recorder.policyDecided({
      ...base,
      verdict: 'allow',
      decision: 'allow',
      reason: 'harmless',
      rule: 0,
    });
    await recorder.toolReturned({ ...base, isError: false, output, durationMs: 1 });
  }
}
function heap() {
  for (let round = 0; round < 4; round++) globalThis.gc();
  return process.memoryUsage().heapUsed;
}
await record(5_000);
const before = heap();
await record(Number(calls));
const after = heap();
await store.close();
process.stdout.write(
  `${JSON.stringify({ perCall: (after - before) / Number(calls), events: store.head().seq })}\n`,
);
