/**
 * What the gate costs: the bare call (schema.parse + the function) against the same call through
 * `ToolRegistry.call` and through an agent handle (grant, validation, allow-all policy, no recorder).
 * Target: the handle adds no more than the bare call's own cost (ratio ≤ 2.0 at the median).
 *
 * Beside it, two rows of issue 27: the handle's own overhead against the floor of any async tool
 * API (the bare call awaited; ≤ 0.5 µs a call on this machine is about 3× that floor: the row that
 * would have caught the 1.3–1.7 µs regression of an accessor literal per call and a JSON
 * serialisation of the parameters per call; printed beside it, the floor of any gate of ours: that
 * awaited call plus the two clock reads, the parameter bound and the output cap the call contract
 * obliges), and grants by set (the last of 10,000 granted tools against a grant of one).
 */
import { defineTool, ToolGate, ToolRegistry } from '@toolgate/core';
import { capOutputOf, oversizedParameters } from '@toolgate/core/testing';
import { z } from 'zod';
import { compareLatency } from './compare.js';
import { format, type Row } from './report.js';

const input = z.object({
  seed: z.string().describe('the seed'),
  depth: z.number().int().min(1).max(9).describe('how deep'),
});
const run = ({ seed, depth }: z.output<typeof input>) => ({ omen: `${seed}:${depth}` });
const tool = defineTool({ name: 'oracle', description: 'Draw an omen.', input, run, parallelSafe: true });
const registry = new ToolRegistry().register(tool);
const manifest = { name: 'fortune-teller', tools: ['oracle'] };
const gate = new ToolGate(registry, { callIds: () => 'id' });
const agent = gate.forAgent(manifest);
const parameters = { seed: 'moss on the north stones', depth: 3 };
const strict = input.strict();
const bareAwaited = {
  name: 'bare, awaited: async schema.parse + function',
  fn: async () => run(strict.parse(parameters)),
};

await compareLatency({
  id: 'core-gate',
  title: 'core: the gate against a bare call',
  what:
    'One oracle call: `schema.parse` + the function (anchor) vs `agent.callTool` with grant, validation, ' +
    'allow-all policy and no recorder. Printed beside: the bare call awaited as a promise (the floor of any ' +
    'async tool API) and `registry.call`.',
  anchor: { name: 'bare: schema.parse + function', fn: () => run(strict.parse(parameters)) },
  subject: { name: 'agent handle: agent.callTool', fn: () => agent.callTool('oracle', parameters) },
  others: [
    bareAwaited,
    { name: 'registry.call', fn: () => registry.call('fortune-teller', manifest, 'oracle', parameters) },
  ],
  maxRatio: 2.0,
});

/**
 * What the call contract obliges any gate of ours to do around the awaited bare call, and nothing
 * else: read the clock when the call arrives and when it ends (a result's `durationMs`), bound the
 * parameters (`limits.parameterChars`) and cap the output (`limits.outputChars`), with the gate's
 * own functions and limits. No grant, policy, context, records or result object.
 */
const { limits } = gate;
const monotonic = performance;
const floor = {
  name: 'floor: awaited bare call + two clock reads + parameter bound + output cap',
  fn: async () => {
    const started = monotonic.now();
    if (oversizedParameters(parameters, limits.parameterChars) !== undefined) throw new Error('oversized');
    const { output } = capOutputOf(run(strict.parse(parameters)), 'oracle', limits);
    return { output, durationMs: monotonic.now() - started };
  },
};

await compareLatency({
  id: 'core-gate-overhead',
  title: 'core: agent.callTool with no recorder against the awaited bare call',
  what:
    'The same oracle call as above: the bare call awaited as a promise (anchor: what any async tool API ' +
    'costs at least) vs `agent.callTool` (grant, validation, allow-all policy, dispatch, cap, no recorder). ' +
    'Issue 27 asks ≤ 0.5 µs a call on this machine, about 3× the anchor. Printed beside: the floor, what ' +
    'the call contract obliges any gate to do around the awaited call (two clock reads for `durationMs`, ' +
    "the parameter bound and the output cap, with the gate's own functions and limits); what the gate " +
    'adds over it is its grant, policy, context, records and result.',
  anchor: bareAwaited,
  subject: { name: 'agent handle: agent.callTool', fn: () => agent.callTool('oracle', parameters) },
  others: [floor],
  maxRatio: 3.0,
  note: (rows) => {
    const [anchor, subject, floored] = rows as [Row, Row, Row];
    const over = (subject.median - floored.median) * 1000;
    return (
      `callTool ${subject.median.toPrecision(3)} µs a call; the floor ${floored.median.toPrecision(3)} µs ` +
      `(${format(floored.median / anchor.median)}× the anchor), the gate ${over.toFixed(0)} ns over it`
    );
  },
});

/** A gate whose agent is granted `count` tools, `oracle` the last of them. */
function grantedAgent(count: number) {
  const many = new ToolRegistry();
  const names: string[] = [];
  for (let index = 0; index < count - 1; index++) {
    const name = `tool_${index}`;
    names.push(name);
    many.register(defineTool({ name, description: 'One of many.', input, run }));
  }
  many.register(tool);
  names.push('oracle');
  return new ToolGate(many, { callIds: () => 'id' }).forAgent({ name: 'many-hands', tools: names });
}
const one = grantedAgent(1);
const tenThousand = grantedAgent(10_000);

await compareLatency({
  id: 'core-grants',
  title: 'core: callTool with 10,000 granted tools against 1',
  what:
    '`agent.callTool` (no recorder) on the last of 10,000 registered and granted tools vs the same call ' +
    'with a grant of one tool (anchor): a grant is a set, a registry a map.',
  anchor: { name: 'one tool granted', fn: () => one.callTool('oracle', parameters) },
  subject: {
    name: '10,000 tools granted, the last called',
    fn: () => tenThousand.callTool('oracle', parameters),
  },
  maxRatio: 1.2,
});
