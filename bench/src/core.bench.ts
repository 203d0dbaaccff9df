/**
 * What the gate costs: the bare call (schema.parse + the function) against the same call through
 * `ToolRegistry.call` and through an agent handle (grant, validation, allow-all policy, no recorder).
 * Target: the handle adds no more than the bare call's own cost (ratio ≤ 2.0 at the median).
 */
import { defineTool, ToolGate, ToolRegistry } from '@toolgate/core';
import { z } from 'zod';
import { compareLatency } from './compare.js';

const input = z.object({
  seed: z.string().describe('the seed'),
  depth: z.number().int().min(1).max(9).describe('how deep'),
});
const run = ({ seed, depth }: z.output<typeof input>) => ({ omen: `${seed}:${depth}` });
const tool = defineTool({ name: 'oracle', description: 'Draw an omen.', input, run, parallelSafe: true });
const registry = new ToolRegistry().register(tool);
const manifest = { name: 'fortune-teller', tools: ['oracle'] };
const agent = new ToolGate(registry, { callIds: () => 'id' }).forAgent(manifest);
const parameters = { seed: 'moss on the north stones', depth: 3 };
const strict = input.strict();

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
    { name: 'bare, awaited: async schema.parse + function', fn: async () => run(strict.parse(parameters)) },
    { name: 'registry.call', fn: () => registry.call('fortune-teller', manifest, 'oracle', parameters) },
  ],
  maxRatio: 2.0,
});
