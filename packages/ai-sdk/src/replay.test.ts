import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RulePolicy, ToolGate, type ToolGateOptions } from '@toolgate/core';
import {
  FileStore,
  LedgerRecorder,
  ReplaySession,
  readAll,
  readLedgerFile,
  replayRegistry,
  steppingClock,
} from '@toolgate/ledger';
import { generateText, type ModelMessage, stepCountIs } from 'ai';
import { afterAll, describe, expect, it } from 'vitest';
import { aiSdkTools } from './ai-sdk-tools.js';
import { aiSdkLoopOptions } from './loop-options.js';
import { counter, type Trace, testRegistry } from './test-support/fixture.js';
import { approvalAnswer, runLoop } from './test-support/loop.js';
import { scriptedModel } from './test-support/scripted-model.js';

const directory = mkdtempSync(join(tmpdir(), 'toolgate-ai-sdk-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const policy = new RulePolicy({
  default: 'allow',
  rules: [
    { tools: ['write_note'], decision: 'ask', reason: 'notes need a person' },
    { tools: ['wait'], decision: 'deny', reason: 'no waiting' },
  ],
});

/**
 * One run through the AI SDK loop: a batch of calls that are not parallel-safe, an ungranted call,
 * a denied call, an image, an approval the app grants, and a subagent (narrowed handle).
 */
async function scenario(
  gate: ToolGate,
  recorder: LedgerRecorder,
): Promise<{ results: string[]; prompts: string }> {
  const handle = gate.forAgent({
    name: 'scribe',
    tools: ['oracle', 'write_note', 'wait', 'sketch', 'survey'],
  });
  await recorder.describeTools('scribe', await handle.toolSchemas());
  const tools = await aiSdkTools(handle);
  const model = scriptedModel([
    {
      calls: [
        { name: 'oracle', input: { seed: 'a long first seed' } },
        { name: 'sketch', input: { title: 'moss' } },
        { name: 'burn', input: {} },
        { name: 'wait', input: {} },
        { name: 'oracle', input: { seed: 'b' } },
        { name: 'survey', input: {} },
      ],
    },
    { calls: [{ name: 'write_note', input: { text: 'remember the moss' } }] },
    { text: 'noted' },
  ]);
  const messages: ModelMessage[] = [{ role: 'user', content: 'read the omens, then write a note' }];
  const first = await runLoop(model, tools, { messages }, 5);
  const request = first.steps
    .flatMap((step) => step.content)
    .find((part) => part.type === 'tool-approval-request')!;
  messages.push(...first.response.messages, approvalAnswer(request.approvalId, true, 'ok'));
  const second = await runLoop(model, tools, { messages }, 5);
  const helperTools = await aiSdkTools(handle.narrow(['oracle'], 'helper'));
  const helperModel = scriptedModel([
    { calls: [{ name: 'oracle', input: { seed: 'helper' } }] },
    { text: 'seen' },
  ]);
  const third = await generateText({
    model: helperModel,
    tools: helperTools,
    ...aiSdkLoopOptions(helperTools),
    prompt: 'look',
    stopWhen: stepCountIs(3),
  });
  // approval ids are the SDK's random ids: everything else the agent saw must be the same
  const sameIds = (text: string) => text.replace(/"approvalId":"[^"]*"/g, '"approvalId":"…"');
  const results = [first, second, third].map((result) =>
    sameIds(JSON.stringify(result.steps.map((step) => step.content))),
  );
  // every prompt the models were sent, as the bytes a provider would serialise
  const prompts = sameIds(
    JSON.stringify([...model.doGenerateCalls, ...helperModel.doGenerateCalls].map((call) => call.prompt)),
  );
  return { results, prompts };
}

async function run(
  file: string,
  options: (recorder: LedgerRecorder) => ToolGateOptions,
  registry?: ReturnType<typeof replayRegistry>,
) {
  const store = await FileStore.open(file, { clock: steppingClock() });
  const recorder = new LedgerRecorder(store, { runId: 'ai-sdk-1' });
  const trace: Trace = { events: [], running: 0, overlapped: false, signals: [] };
  const gate = new ToolGate(registry ?? testRegistry(trace), options(recorder));
  const { results, prompts } = await scenario(gate, recorder);
  await store.close();
  return { results, prompts, trace };
}

describe('record, then replay with every tool switched off, through the AI SDK loop', () => {
  it('writes a byte-identical ledger', async () => {
    const original = join(directory, 'original.jsonl');
    let tick = 0;
    const recorded = await run(original, (recorder) => ({
      recorder,
      policy,
      callIds: counter(),
      clock: () => (tick += 3),
    }));
    const bytes = readFileSync(original, 'utf8');
    for (const expected of [
      'CAPABILITY_VIOLATION',
      'PERMISSION_DENIED',
      'approved by ai-sdk tool approval: ok',
      'image/png',
      'agent.derived',
    ])
      expect(bytes).toContain(expected);
    expect(recorded.trace.overlapped).toBe(false);

    const events = await readAll(readLedgerFile(original));
    const replay = new ReplaySession(events, { mode: 'strict' });
    const copy = join(directory, 'replayed.jsonl');
    const registry = replayRegistry(replay);
    const replayed = await run(
      copy,
      (recorder) => replay.gateOptions({ recorder, callIds: counter() }),
      registry,
    );
    expect(replay.divergences).toEqual([]);
    expect(() => replay.assertComplete()).not.toThrow();
    expect(replayed.trace.events).toEqual([]); // nothing ran
    expect(readFileSync(copy, 'utf8').split('\n')).toEqual(bytes.split('\n'));
    expect(replayed.results).toEqual(recorded.results);
  });

  it('hands the model the same prompt bytes in a replay as in the live run', async () => {
    let tick = 0;
    const live = await run(join(directory, 'prompts-live.jsonl'), (recorder) => ({
      recorder,
      policy,
      callIds: counter(),
      clock: () => (tick += 3),
    }));
    expect(live.prompts).toContain('{"moss":{"deep":[{"x":2,"y":1}],"tall":2},"zebra":1}');
    const events = await readAll(readLedgerFile(join(directory, 'prompts-live.jsonl')));
    const replay = new ReplaySession(events, { mode: 'strict' });
    const replayed = await run(
      join(directory, 'prompts-replayed.jsonl'),
      (recorder) => replay.gateOptions({ recorder, callIds: counter() }),
      replayRegistry(replay),
    );
    expect(replay.divergences).toEqual([]);
    expect(replayed.prompts).toBe(live.prompts);
  });
});
