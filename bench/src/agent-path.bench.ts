/**
 * The full agent path against the tool-execution paths a user would otherwise pick: the Vercel AI
 * SDK's `tool()` and the OpenAI Agents SDK's function tool. Every side gets the same zod schema, the
 * same tool body and the same JSON text of the model's arguments, and parses that text itself:
 *
 * - AI SDK (`ai` 7): what `generateText` does for a tool call once the model has answered —
 *   `asSchema(tool.inputSchema)`, `safeParseJSON({ text, schema })` (secure JSON parse + schema
 *   validation), then `executeTool({ execute, input, options: { toolCallId, messages } })`.
 * - Agents SDK (`@openai/agents-core` 0.20): `tool({ parameters, execute }).invoke(runContext, text)`
 *   (JSON parse, zod validation, the error function, the timeout wrapper).
 * - toolgate: `JSON.parse(text)` then `agent.callTool` — grant check, policy (a one-rule document),
 *   validation, output check and cap, and three events (tool.called, policy.decided, tool.returned)
 *   hash-chained by a `LedgerRecorder` into a `MemoryStore`. Neither SDK records anything.
 *
 * No target in the issue: toolgate does strictly more work, so the figure is printed, with the
 * microseconds that work adds per call.
 *
 * Then the framework loop itself (issue 14): one `oracle` call through Agents' `run()` with its
 * `ScriptedModel`, the tool built by `@toolgate/openai-agents` (no recorder) against a plain Agents
 * `tool()` with the same zod schema and body — target ≤ 1.2× — and the adapter over the ledger,
 * printed. Both sides build the same agent and script each call and parse the same arguments.
 *
 * Then the whole loop (issue 14): one `generateText` run with the AI SDK's own mock model (`ai/test`)
 * that calls `oracle` once and then answers, with a plain AI SDK `tool()` against the same tool
 * through `@toolgate/ai-sdk` (`aiSdkTools` + `aiSdkLoopOptions`, no recorder) — target ≤ 1.2× — and
 * through the adapter with the hash-chained ledger, printed. The plain tool carries the zod schema,
 * which the SDK converts and validates with on every run; the adapter hands the SDK a plain JSON
 * Schema without a validator (the gate validates), which is why it can come out faster.
 */
import { asSchema, executeTool, safeParseJSON } from '@ai-sdk/provider-utils';
import { Agent, run, setTracingDisabled } from '@openai/agents';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents/testing';
import { tool as agentsTool, RunContext } from '@openai/agents-core';
import { aiSdkLoopOptions, aiSdkTools } from '@toolgate/ai-sdk';
import { drawOmen } from '@toolgate/builtins';
import { defineTool, RulePolicy, ToolGate, ToolRegistry } from '@toolgate/core';
import { canonicalJson, LedgerRecorder, MemoryStore } from '@toolgate/ledger';
import { agentsTools, type GatedRunOptions } from '@toolgate/openai-agents';
import { tool as aiTool, generateText, type ModelMessage, stepCountIs, type ToolSet } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
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
    tool: aiOracle,
    input: parsed.value as Input,
    options: { toolCallId: `call-${aiCalls++}`, messages: [], context: undefined as never },
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
const policy = new RulePolicy({
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

// Every side must produce the same output before its speed means anything (the same value: the
// adapters hand the model its keys in canonical order, so compare canonical texts).
const expected = canonicalJson(floor());
const outputs = {
  'AI SDK': await viaAiSdk(),
  'Agents SDK': await viaAgentsSdk(),
  toolgate: ((await viaToolgate()) as { output?: unknown }).output,
};
for (const [side, output] of Object.entries(outputs)) {
  if (canonicalJson(output) !== expected)
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
      'One `oracle` call from the JSON text a model sends, same zod schema and body: the AI SDK 7 path of ' +
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
      '0.20 `tool({ parameters, execute }).invoke(runContext, text)` (parse, validation, error function, ' +
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

// The whole AI SDK loop --------------------------------------------------------------------------------
const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};
/** The AI SDK's mock model: calls `oracle` once, then answers with the tool result it was shown. */
const loopModel = new MockLanguageModelV4({
  doGenerate: async ({ prompt }) =>
    prompt.at(-1)?.role === 'tool'
      ? {
          content: [{ type: 'text', text: 'seen' }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage,
          warnings: [],
        }
      : {
          content: [{ type: 'tool-call', toolCallId: 'call-1', toolName: 'oracle', input: text }],
          finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
          usage,
          warnings: [],
        },
});
loopModel.doGenerateCalls = new Proxy([], { set: () => true }); // keep memory flat: record no calls
const messages: ModelMessage[] = [{ role: 'user', content: 'draw an omen' }];
const loop =
  (tools: ToolSet, extra: object = {}) =>
  async () => {
    const result = await generateText({
      model: loopModel,
      tools,
      ...extra,
      messages,
      stopWhen: stepCountIs(2),
    });
    return result.steps[0]!.toolResults[0]!.output;
  };
const plainTools = { oracle: aiOracle };
const gatedTools = await aiSdkTools(unrecorded);
let loopCalls = 0;
/** A gate over a fresh ledger, with call ids of its own (an id recorded twice would be stored once). */
const loopAgent = () => {
  const recorder = new LedgerRecorder(new MemoryStore(), { runId: 'bench-loop' });
  return new ToolGate(registry, { policy, recorder, callIds: () => `loop-${loopCalls}` }).forAgent(manifest);
};
let recordedTools = await aiSdkTools(loopAgent());
const viaLoopPlain = loop(plainTools);
const viaLoopGated = loop(gatedTools, aiSdkLoopOptions(gatedTools));
const viaLoopLedger = async () => {
  if (++loopCalls % 1_000 === 0) recordedTools = await aiSdkTools(loopAgent());
  return loop(recordedTools, aiSdkLoopOptions(recordedTools))();
};
const loopOutputs = {
  'plain AI SDK tool': await viaLoopPlain(),
  '@toolgate/ai-sdk': ((await viaLoopGated()) as { output?: unknown }).output,
  '@toolgate/ai-sdk + ledger': ((await viaLoopLedger()) as { output?: unknown }).output,
};
for (const [side, output] of Object.entries(loopOutputs)) {
  if (canonicalJson(output) !== expected)
    throw new Error(`${side} returned ${JSON.stringify(output)}, not ${expected}`);
}
await compareLatency({
  id: 'agent-path-ai-sdk-loop',
  title:
    'agent path: one tool call through the AI SDK generateText loop, @toolgate/ai-sdk against a plain tool()',
  what:
    'One `generateText` run (`ai` 7) with the AI SDK mock model (`ai/test` `MockLanguageModelV4`) that calls ' +
    '`oracle` once and then answers: two model calls and one tool call. Anchor: a plain AI SDK `tool()` with the ' +
    'zod schema. Subject: the same tool through `aiSdkTools(handle)` + `aiSdkLoopOptions` (grant, one-rule ' +
    'policy, pre-flight check for approvals, validation, the calls of a step batched through `callTools`, output cap; no recorder). Printed ' +
    'beside: the adapter with the hash-chained in-memory ledger.',
  anchor: { name: 'AI SDK loop: plain tool()', fn: viaLoopPlain },
  subject: { name: 'AI SDK loop: @toolgate/ai-sdk, no recorder', fn: viaLoopGated },
  others: [{ name: 'AI SDK loop: @toolgate/ai-sdk + ledger', fn: viaLoopLedger }],
  maxRatio: 1.2,
  note: ([plain, gated]) => `the adapter adds ${format(gated!.median - plain!.median)} µs a run`,
});

// The Agents run loop (issue 14) ------------------------------------------------------------------
setTracingDisabled(true);
type LoopTools = Agent['tools'];
const loopArguments = { seed: 'moss on the north stones', depth: 3 };
/** One model turn calling the oracle, then a final answer: what both sides of the loop run. */
async function viaLoop(tools: LoopTools, options?: GatedRunOptions): Promise<unknown> {
  const model = new ScriptedModel([
    [functionCall('oracle', loopArguments, { callId: 'c1' })],
    [assistantMessage('the stones have spoken')],
  ]);
  const agentsLoopAgent = new Agent({
    name: 'fortune-teller',
    instructions: 'Read the omens.',
    model,
    tools,
  });
  const result = await run(agentsLoopAgent, 'What do the stones say?', options);
  const output = result.newItems.find((item) => item.type === 'tool_call_output_item');
  return output?.type === 'tool_call_output_item' ? output.output : undefined;
}
const agentsPlainTools: LoopTools = [
  agentsTool({
    name: 'oracle',
    description,
    parameters: schema,
    execute: (input) => JSON.stringify(body(input)),
  }),
];
const gated = await agentsTools(unrecorded);
let agentsLoopCalls = 0;
let ledgerTools = await agentsTools(freshLoopAgent());
/** The adapter over a fresh hash-chained ledger every 1,000 calls, so memory stays flat. */
function freshLoopAgent() {
  const recorder = new LedgerRecorder(new MemoryStore(), { runId: 'bench' });
  return new ToolGate(registry, { policy, recorder, callIds: () => `call-${agentsLoopCalls}` }).forAgent(
    manifest,
  );
}
const viaPlainLoop = () => viaLoop(agentsPlainTools);
const viaGatedLoop = () => viaLoop(gated.tools, gated.runOptions);
const viaLedgerLoop = async () => {
  if (++agentsLoopCalls % 1_000 === 0) ledgerTools = await agentsTools(freshLoopAgent());
  return viaLoop(ledgerTools.tools, ledgerTools.runOptions);
};
const agentsLoopOutputs = {
  plain: await viaPlainLoop(),
  adapter: await viaGatedLoop(),
  ledger: await viaLedgerLoop(),
};
const loopExpected = canonicalJson(body(loopArguments));
for (const [side, output] of Object.entries(agentsLoopOutputs)) {
  if (typeof output !== 'string' || canonicalJson(JSON.parse(output)) !== loopExpected)
    throw new Error(`${side} loop returned ${JSON.stringify(output)}, not ${loopExpected}`);
}
await compareLatency({
  id: 'agent-path-openai-agents-loop',
  title: 'Agents run loop: the @toolgate/openai-agents tool against a plain Agents tool()',
  what:
    'One `oracle` call through `@openai/agents` 0.20 `run()` with its `ScriptedModel` (a tool-call turn, then a ' +
    'final answer; a new model and agent each call, on both sides): the tool from `agentsTools(handle)` with its ' +
    '`runOptions` and no recorder, against a plain `tool({ parameters: zodSchema, execute })`. Printed beside: ' +
    'the adapter over the hash-chained in-memory ledger.',
  anchor: { name: 'Agents: run() with a plain tool()', fn: viaPlainLoop },
  subject: { name: 'Agents: run() with agentsTools (no recorder)', fn: viaGatedLoop },
  others: [{ name: 'Agents: run() with agentsTools + ledger', fn: viaLedgerLoop }],
  maxRatio: 1.2,
  note: ([plain, adapter]) => `the adapter adds ${format(adapter!.median - plain!.median)} µs a run`,
});
