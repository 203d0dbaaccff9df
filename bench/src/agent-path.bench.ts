/**
 * The full agent path against the tool-execution paths a user would otherwise pick: the Vercel AI
 * SDK's `tool()` and the OpenAI Agents SDK's function tool. Every side gets the same zod schema, the
 * same tool body and the same JSON text of the model's arguments, and parses that text itself:
 *
 * - AI SDK (`ai` 6): what `generateText` does for a tool call once the model has answered —
 *   `asSchema(tool.inputSchema)`, `safeParseJSON({ text, schema })` (secure JSON parse + schema
 *   validation), then `executeTool({ execute, input, options: { toolCallId, messages } })`.
 * - Agents SDK (`@openai/agents-core` 0.14): `tool({ parameters, execute }).invoke(runContext, text)`
 *   (JSON parse, zod validation, the error function, the timeout wrapper).
 * - toolgate: `JSON.parse(text)` then `agent.callTool` — grant check, policy (a one-rule document),
 *   validation, output check and cap, and three events (tool.called, policy.decided, tool.returned)
 *   hash-chained by a `LedgerRecorder` into a `MemoryStore`. Neither SDK records anything.
 *
 * No target in the issue: toolgate does strictly more work, so the figure is printed, with the
 * microseconds that work adds per call.
 */
import { asSchema, executeTool, safeParseJSON } from '@ai-sdk/provider-utils';
import { tool as agentsTool, RunContext } from '@openai/agents-core';
import { drawOmen } from '@toolgate/builtins';
import { defineTool, Policy, ToolGate, ToolRegistry } from '@toolgate/core';
import { LedgerRecorder, MemoryStore } from '@toolgate/ledger';
import { tool as aiTool } from 'ai';
import { z } from 'zod';
import { compareLatency } from './compare.js';
import { format } from './report.js';

const description = 'Draw a cryptic omen. The same seed always gives the same omen.';
const schema = z.object({
  seed: z.string().describe('Any text, such as the current scene; it picks the omen.'),
  depth: z.number().int().min(1).max(9).describe('How deep to look.'),
});
type Input = z.output<typeof schema>;
/** The tool body every side runs. */
const body = ({ seed, depth }: Input) => ({ omen: drawOmen(seed), depth });
/** The arguments as the model sends them: JSON text. */
const text = '{"seed":"moss on the north stones","depth":3}';

// Vercel AI SDK -------------------------------------------------------------------------------------
const aiOracle = aiTool({ description, inputSchema: schema, execute: (input: Input) => body(input) });
let aiCalls = 0;
async function viaAiSdk(): Promise<unknown> {
  const parsed = await safeParseJSON({ text, schema: asSchema(aiOracle.inputSchema) });
  if (!parsed.success) throw parsed.error;
  let output: unknown;
  const stream = executeTool({
    execute: aiOracle.execute!.bind(aiOracle),
    input: parsed.value,
    options: { toolCallId: `call-${aiCalls++}`, messages: [] },
  });
  for await (const part of stream) if (part.type === 'final') output = part.output;
  return output;
}

// OpenAI Agents SDK ---------------------------------------------------------------------------------
const agentsOracle = agentsTool({ name: 'oracle', description, parameters: schema, execute: body });
const runContext = new RunContext();
const viaAgentsSdk = () => agentsOracle.invoke(runContext, text);

// toolgate ------------------------------------------------------------------------------------------
const oracle = defineTool({ name: 'oracle', description, input: schema, run: body, parallelSafe: true });
const registry = new ToolRegistry().register(oracle);
const manifest = { name: 'fortune-teller', tools: ['oracle'] };
const policy = new Policy({
  default: 'deny',
  rules: [{ tools: ['oracle'], decision: 'allow', reason: 'the oracle only reads' }],
});
let toolgateCalls = 0;
let agent = freshAgent();
/** A gate over a fresh hash-chained ledger: a run of 1,000 calls, then a new ledger, so memory stays flat. */
function freshAgent() {
  const recorder = new LedgerRecorder(new MemoryStore(), { runId: 'bench' });
  return new ToolGate(registry, { policy, recorder, callIds: () => `call-${toolgateCalls}` }).forAgent(
    manifest,
  );
}
const viaToolgate = () => {
  if (++toolgateCalls % 1_000 === 0) agent = freshAgent();
  return agent.callTool('oracle', JSON.parse(text));
};
const unrecorded = new ToolGate(registry, { policy, callIds: () => 'call' }).forAgent(manifest);
const viaToolgateUnrecorded = () => unrecorded.callTool('oracle', JSON.parse(text));

const floor = () => body(schema.parse(JSON.parse(text)));

// Every side must produce the same output before its speed means anything.
const expected = JSON.stringify(floor());
const outputs = {
  'AI SDK': await viaAiSdk(),
  'Agents SDK': await viaAgentsSdk(),
  toolgate: ((await viaToolgate()) as { output?: unknown }).output,
};
for (const [side, output] of Object.entries(outputs)) {
  if (JSON.stringify(output) !== expected)
    throw new Error(`${side} returned ${JSON.stringify(output)}, not ${expected}`);
}

const toolgateSide = { name: 'toolgate: JSON.parse + agent.callTool + ledger', fn: viaToolgate };
const printedSides = [
  { name: 'toolgate without a recorder', fn: viaToolgateUnrecorded },
  { name: 'floor: JSON.parse + schema.parse + body', fn: floor },
];
const sdkSides = [
  {
    id: 'agent-path-ai-sdk',
    title: 'agent path: toolgate against the Vercel AI SDK tool()',
    what:
      'One `oracle` call from the JSON text a model sends, same zod schema and body: the AI SDK 6 path of ' +
      '`generateText` (`asSchema`, `safeParseJSON` with validation, `executeTool` with `{ toolCallId, messages }`) ' +
      'vs toolgate `JSON.parse` + `agent.callTool` (grant, one-rule policy, validation, output cap, three ' +
      'hash-chained events into a `MemoryStore`). Printed beside: toolgate with no recorder, and the floor.',
    anchor: { name: 'AI SDK: safeParseJSON + executeTool', fn: viaAiSdk },
    maxRatio: 3,
  },
  {
    id: 'agent-path-openai-agents',
    title: 'agent path: toolgate against the OpenAI Agents SDK function tool',
    what:
      'One `oracle` call from the JSON text a model sends, same zod schema and body: `@openai/agents-core` ' +
      '0.14 `tool({ parameters, execute }).invoke(runContext, text)` (parse, validation, error function, ' +
      'timeout wrapper) vs toolgate `JSON.parse` + `agent.callTool` with the hash-chained in-memory ledger. ' +
      'Printed beside: toolgate with no recorder, and the floor.',
    anchor: { name: 'Agents SDK: functionTool.invoke', fn: viaAgentsSdk },
  },
];
for (const sides of sdkSides) {
  await compareLatency({
    ...sides,
    subject: toolgateSide,
    others: printedSides,
    note: ([sdk, toolgate]) => `toolgate takes ${format(toolgate!.median - sdk!.median)} µs a call more`,
  });
}
