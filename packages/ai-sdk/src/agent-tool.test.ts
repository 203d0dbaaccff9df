import { RulePolicy, ToolGate } from '@toolgate/core';
import {
  canonicalJson,
  LedgerRecorder,
  MemoryStore,
  ReplaySession,
  readAll,
  replayRegistry,
  steppingClock,
} from '@toolgate/ledger';
import { generateText, stepCountIs } from 'ai';
import { describe, expect, it } from 'vitest';
import { agentTool } from './agent-tool.js';
import { aiSdkTools } from './ai-sdk-tools.js';
import { aiSdkLoopOptions } from './loop-options.js';
import { counter, recordedGate } from './test-support/fixture.js';
import { scriptedModel } from './test-support/scripted-model.js';

const policy = (askSeer: 'allow' | 'deny') =>
  new RulePolicy({
    default: 'allow',
    rules: [
      {
        tools: ['ask_seer'],
        decision: askSeer,
        reason: `the seer is ${askSeer === 'allow' ? 'in' : 'away'}`,
      },
    ],
  });

/** A lead that asks its seer (a subagent narrowed to `oracle`, as a tool) once, through generateText. */
async function leadAndSeer(gate: ToolGate) {
  const lead = gate.forAgent({ name: 'lead', tools: ['oracle', 'write_note', 'ask_seer'] });
  const seerModel = scriptedModel([
    { calls: [{ name: 'oracle', input: { seed: 'ash' } }] },
    { calls: [{ name: 'write_note', input: { text: 'not mine' } }] },
    { text: 'the ash remembers' },
  ]);
  gate.registry.register(
    agentTool({
      name: 'ask_seer',
      description: 'Asks the seer.',
      handle: lead.narrow(['oracle'], 'seer'),
      run: async ({ input, tools, loopOptions, abortSignal }) =>
        (
          await generateText({
            model: seerModel,
            tools,
            ...loopOptions,
            prompt: input,
            abortSignal,
            stopWhen: stepCountIs(5),
          })
        ).text,
    }),
  );
  const tools = await aiSdkTools(lead);
  const model = scriptedModel([
    { calls: [{ name: 'ask_seer', input: { input: 'what of the ash?' } }] },
    { text: 'told' },
  ]);
  const result = await generateText({
    model,
    tools,
    ...aiSdkLoopOptions(tools),
    prompt: 'ask',
    stopWhen: stepCountIs(4),
  });
  return { text: result.text, seerModel, toolResults: result.steps.flatMap((step) => step.toolResults) };
}

describe('a subagent as a tool through the gate (agentTool)', () => {
  it("records the call of the subagent, policy-judged, with the subagent's calls as its lineage children", async () => {
    const { gate, events } = recordedGate(policy('allow'));
    const { text, toolResults } = await leadAndSeer(gate);
    expect(text).toBe('told');
    expect(toolResults[0]?.output).toMatchObject({ isError: false, output: 'the ash remembers' });
    const recorded = await events();
    expect(
      recorded.map((event) => {
        const payload = event.payload as { tool?: string; agent?: string; via?: { callId: string } };
        if (event.kind === 'agent.derived')
          return `${event.actor} → ${payload.agent}${payload.via ? ` in ${payload.via.callId}` : ''}`;
        return `${event.kind} ${event.actor} ${payload.tool}`;
      }),
    ).toEqual([
      'tool.called lead ask_seer',
      'policy.decided lead ask_seer',
      'lead → seer',
      'lead → seer in c1',
      'tool.called seer oracle',
      'policy.decided seer oracle',
      'tool.returned seer oracle',
      'tool.called seer write_note',
      'tool.returned seer write_note',
      'tool.returned lead ask_seer',
    ]);
    expect(recorded[3]?.payload).toEqual({
      agent: 'seer',
      parent: 'lead',
      tools: ['oracle'],
      via: { kind: 'tool', tool: 'ask_seer', callId: 'c1' },
    });
    expect(recorded[8]?.payload).toMatchObject({ error: { code: 'CAPABILITY_VIOLATION' } });
  });

  it('never runs the subagent when policy refuses the call of it', async () => {
    const { gate, events } = recordedGate(policy('deny'));
    const { toolResults, seerModel } = await leadAndSeer(gate);
    expect(seerModel.doGenerateCalls).toHaveLength(0);
    expect(toolResults[0]?.output).toMatchObject({ isError: true, error: { code: 'PERMISSION_DENIED' } });
    expect((await events()).map((event) => event.kind)).toEqual([
      'tool.called',
      'policy.decided',
      'tool.returned',
    ]);
  });

  it('replays with the agent tool registered in the replay, writing the same bytes', async () => {
    const { gate, events } = recordedGate(policy('allow'));
    await leadAndSeer(gate);
    const recorded = await events();
    const replay = new ReplaySession(recorded, { mode: 'strict' });
    const store = new MemoryStore({ clock: steppingClock() });
    const recorder = new LedgerRecorder(store, { runId: 'run-1' });
    let tick = 0;
    const replayGate = new ToolGate(
      replayRegistry(replay),
      replay.gateOptions({ recorder, callIds: counter(), clock: () => tick++ }),
    );
    expect((await leadAndSeer(replayGate)).text).toBe('told');
    expect(replay.divergences).toEqual([]);
    expect(() => replay.assertComplete()).not.toThrow();
    const lines = (events: readonly object[]) => events.map((event) => canonicalJson(event));
    expect(lines(await readAll(store.read()))).toEqual(lines(recorded));
  });
});
