import { Agent, type AgentInputItem, setTracingDisabled } from '@openai/agents';
import { ScriptedModel, type ScriptedModelInput } from '@openai/agents/testing';
import {
  defineTool,
  RulePolicy,
  ToolGate,
  type ToolGateOptions,
  ToolRegistry,
  toolResult,
} from '@toolgate/core';
import { canonicalJson, LedgerRecorder, MemoryStore, readAll, steppingClock } from '@toolgate/ledger';
import { z } from 'zod';

// The tests run offline: no trace is exported anywhere.
setTracingDisabled(true);

/** A one-pixel PNG, base64. */
export const pixel =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** What the scribe saw: how many scribe calls were running at once, at most, and the order they ran in. */
export const scribeLog = { running: 0, most: 0, order: [] as string[] };

/** Resolves when the `wait` tool has started, so a test can abort the run while it runs. */
export let waitStarted: Promise<void> = Promise.resolve();
let markWaitStarted = () => {};
export function expectWait(): void {
  waitStarted = new Promise((resolve) => {
    markWaitStarted = resolve;
  });
}
/** The signal the `wait` tool last received. */
export const waitSeen: { signal?: AbortSignal } = {};

const oracle = defineTool({
  name: 'oracle',
  description: 'Draws an omen from a seed.',
  input: z.object({
    seed: z.string().describe('Any text.'),
    depth: z.number().int().min(1).max(9).optional().describe('How deep to look.'),
  }),
  parallelSafe: true,
  run: ({ seed, depth }) => ({ omen: `the ${seed} turns ${depth ?? 1} times` }),
});

/** Not parallel-safe: it yields several times while it runs, so overlapping calls would show. */
const scribe = defineTool({
  name: 'scribe',
  description: 'Writes a line in the book.',
  input: z.object({ line: z.string().describe('The line to write.') }),
  run: async ({ line }) => {
    scribeLog.running += 1;
    scribeLog.most = Math.max(scribeLog.most, scribeLog.running);
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    scribeLog.order.push(line);
    scribeLog.running -= 1;
    return { written: line };
  },
});

const painter = defineTool({
  name: 'painter',
  description: 'Paints a picture.',
  input: z.object({ subject: z.string().describe('What to paint.') }),
  run: ({ subject }) =>
    toolResult({
      output: { painted: subject },
      content: [{ type: 'image', data: pixel, mimeType: 'image/png' }],
    }),
});

/** Returns keys out of canonical order, with a text rendering of its output beside an image. */
const survey = defineTool({
  name: 'survey',
  description: 'Counts what grows.',
  input: z.object({}),
  run: () =>
    toolResult({
      output: { zebra: 1, moss: { tall: 2, deep: [{ y: 1, x: 2 }] } },
      content: [
        { type: 'text', text: '{"zebra":1,"moss":{"tall":2,"deep":[{"y":1,"x":2}]}}' },
        { type: 'image', data: pixel, mimeType: 'image/png' },
      ],
    }),
});

/** Every run counts here: a test proves a refused call never ran. */
export const ran = { vault: 0, wire: 0 };

const vault = defineTool({
  name: 'vault',
  description: 'Opens the vault.',
  input: z.object({ door: z.string().describe('Which door.') }),
  run: () => {
    ran.vault += 1;
    return { opened: true };
  },
});

const wire = defineTool({
  name: 'wire',
  description: 'Sends money.',
  input: z.object({ to: z.string().describe('Who gets it.'), amount: z.number().describe('How much.') }),
  run: ({ to, amount }) => {
    ran.wire += 1;
    return { sent: amount, to };
  },
});

const wait = defineTool({
  name: 'wait',
  description: 'Waits until cancelled.',
  input: z.object({}),
  run: (_input, context) =>
    new Promise((_resolve, reject) => {
      waitSeen.signal = context.signal;
      context.signal.addEventListener('abort', () => reject(context.signal.reason), { once: true });
      markWaitStarted();
    }),
});

/** The live tools. */
export function registry(): ToolRegistry {
  return new ToolRegistry()
    .register(oracle)
    .register(scribe)
    .register(painter)
    .register(vault)
    .register(wire)
    .register(wait)
    .register(survey);
}

/** Denies the vault, asks about wires, allows the rest. */
export const policy = new RulePolicy({
  rules: [
    { tools: ['vault'], decision: 'deny', reason: 'the vault stays shut' },
    { tools: ['wire'], decision: 'ask', reason: 'money leaves' },
    { tools: ['oracle', 'scribe', 'painter', 'wait', 'survey'], decision: 'allow', reason: 'harmless' },
  ],
});

/** Call ids 0, 1, 2 … */
export function counter(prefix = 'call'): () => string {
  let next = 0;
  return () => `${prefix}-${next++}`;
}

/** A gate over a fresh in-memory ledger, with deterministic ids, clock and durations. */
export function recordedGate(options: ToolGateOptions = {}) {
  const store = new MemoryStore({ clock: steppingClock() });
  const recorder = new LedgerRecorder(store, { runId: 'agents-1' });
  let now = 0;
  const gate = new ToolGate(registry(), {
    policy,
    recorder,
    callIds: counter(),
    clock: () => (now += 1),
    ...options,
  });
  return { gate, store, recorder };
}

/** The ledger's events, each as its canonical JSON line. */
export async function ledgerLines(store: MemoryStore): Promise<string[]> {
  return (await readAll(store.read())).map((event) => canonicalJson(event));
}

/** The ledger's events as objects. */
export async function ledgerEvents(store: MemoryStore) {
  return readAll(store.read());
}

/** An agent on a scripted model. */
export function scriptedAgent(name: string, tools: Agent['tools'], script: ScriptedModelInput[]) {
  const model = new ScriptedModel(script);
  return { agent: new Agent({ name, instructions: 'Use the tools.', model, tools }), model };
}

/** The `function_call_result` items the model was sent in its call number `index`, by call id. */
export function toolOutputsSent(model: ScriptedModel, index: number): Map<string, unknown> {
  const input = model.calls[index]?.request.input;
  const outputs = new Map<string, unknown>();
  if (!Array.isArray(input)) return outputs;
  for (const item of input as AgentInputItem[]) {
    if (item.type === 'function_call_result') outputs.set(item.callId, item.output);
  }
  return outputs;
}
