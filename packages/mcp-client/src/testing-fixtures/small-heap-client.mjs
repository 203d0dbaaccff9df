// Runs MCPResolver (the BUILT package, dist/) in this process, which the tests start with a small
// heap (node --max-old-space-size=256): attaches one server, optionally calls one tool, and prints
// one JSON line — what happened, and the peak heap and RSS seen — then exits 0.
// Usage: node --max-old-space-size=256 small-heap-client.mjs '{"server":{…},"call":{"tool":"…","parameters":{}}}'
import { getHeapStatistics } from 'node:v8';
import { MCPResolver } from '../../dist/index.js';

const spec = JSON.parse(process.argv[2]);
let heapPeak = 0;
const sample = () => {
  heapPeak = Math.max(heapPeak, getHeapStatistics().used_heap_size);
};
const sampler = setInterval(sample, 5);

const outcome = { stage: 'attach' };
let resolver;
try {
  resolver = await MCPResolver.connect([spec.server]);
  outcome.tools = await Promise.all((spec.expectTools ?? []).map((name) => resolver.has(name)));
  if (spec.call) {
    outcome.stage = 'call';
    const output = await resolver.call(spec.call.tool, spec.call.parameters ?? {});
    outcome.outputChars = JSON.stringify(output).length;
  }
  outcome.ok = true;
} catch (error) {
  outcome.ok = false;
  outcome.code = error?.code;
  outcome.messageChars = String(error?.message).length;
  outcome.message = String(error?.message).slice(0, 2000);
  outcome.messageTail = String(error?.message).slice(-300);
}
await resolver?.close();
sample();
clearInterval(sampler);
outcome.heapPeakMiB = Math.round(heapPeak / 1024 / 1024);
outcome.maxRssMiB = Math.round(process.resourceUsage().maxRSS / 1024);
process.stdout.write(`${JSON.stringify(outcome)}\n`);
process.exit(0);
