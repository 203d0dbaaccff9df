import { Agent, run } from '@openai/agents';
import {
  assistantMessage,
  functionCall,
  ScriptedModel,
  type ScriptedModelInput,
} from '@openai/agents/testing';
import { type AgentHandle, ToolGate } from '@toolgate/core';
import { LedgerRecorder, MemoryStore, ReplaySession, replayRegistry, steppingClock } from '@toolgate/ledger';
import { describe, expect, it } from 'vitest';
import { agentsTools } from './agents-tools.js';
import {
  counter,
  ledgerEvents,
  ledgerLines,
  ran,
  recordedGate,
  toolOutputsSent,
} from './test-support/fixtures.js';

const manifest = { name: 'teller', tools: ['oracle', 'scribe', 'painter', 'vault', 'wire'] };

/** Every path the adapter takes, in two model turns and an approval. */
function script(): ScriptedModelInput[] {
  return [
    [
      functionCall('oracle', { seed: 'moss', depth: 2 }, { callId: 'c1' }),
      functionCall('scribe', { line: 'first' }, { callId: 'c2' }),
      functionCall('painter', { subject: 'ash' }, { callId: 'c3' }),
      functionCall('vault', { door: 'north' }, { callId: 'c4' }),
      functionCall('oracle', { seed: 42 }, { callId: 'c5' }),
    ],
    [
      functionCall('wire', { to: 'bob', amount: 5 }, { callId: 'c6' }),
      functionCall('wire', { to: 'eve', amount: 9 }, { callId: 'c7' }),
      functionCall('shell', { command: 'ls' }, { callId: 'c8' }),
    ],
    [assistantMessage('done')],
  ];
}

/** Runs the script through Agents on `handle`, approving bob's wire and rejecting eve's. */
async function runThrough(handle: AgentHandle) {
  const { tools, runOptions } = await agentsTools(handle, { approvedBy: 'alice' });
  const model = new ScriptedModel(script());
  const agent = new Agent({ name: 'teller', instructions: 'Use the tools.', model, tools });
  const first = await run(agent, 'go', runOptions);
  for (const item of first.interruptions) {
    const to = JSON.parse((item.rawItem as { arguments: string }).arguments).to;
    if (to === 'bob') first.state.approve(item);
    else first.state.reject(item);
  }
  const second = await run(agent, first.state, runOptions);
  return { output: second.finalOutput, sent: [toolOutputsSent(model, 1), toolOutputsSent(model, 2)] };
}

describe('record, then replay with every tool switched off, through the Agents loop', () => {
  it('writes a byte-identical ledger and gives the model the same results', async () => {
    const { gate, store, recorder } = recordedGate();
    const handle = gate.forAgent(manifest);
    await recorder.record('run.started', 'system', { scenario: 'agents' });
    await recorder.describeTools('system', await handle.toolSchemas());
    const wiresBefore = ran.wire;
    const recorded = await runThrough(handle);
    expect(ran.wire).toBe(wiresBefore + 1);
    const lines = await ledgerLines(store);
    for (const code of ['PERMISSION_DENIED', 'INVALID_PARAMETERS', 'CAPABILITY_VIOLATION'])
      expect(lines.join('\n')).toContain(`"code":"${code}"`);
    expect(lines.join('\n')).toContain('approved by alice');
    expect(lines.join('\n')).toContain('"type":"image"');

    const replay = new ReplaySession(await ledgerEvents(store), { mode: 'strict' });
    const replayStore = new MemoryStore({ clock: steppingClock() });
    const replayRecorder = new LedgerRecorder(replayStore, { runId: 'agents-1' });
    let now = 0;
    const replayGate = new ToolGate(
      replayRegistry(replay),
      replay.gateOptions({ recorder: replayRecorder, callIds: counter(), clock: () => (now += 1) }),
    );
    const replayHandle = replayGate.forAgent(manifest);
    await replayRecorder.record('run.started', 'system', { scenario: 'agents' });
    await replayRecorder.describeTools('system', await replayHandle.toolSchemas());
    const replayed = await runThrough(replayHandle);

    expect(ran.wire).toBe(wiresBefore + 1); // nothing ran again
    expect(replay.divergences).toEqual([]);
    expect(() => replay.assertComplete()).not.toThrow();
    expect(replayed).toEqual(recorded);
    expect((await ledgerLines(replayStore)).join('\n')).toBe(lines.join('\n'));
  });
});

describe('a subagent as a tool, on a narrowed handle', () => {
  it('gives the subagent only its narrowed grant, and records the lineage before its first call', async () => {
    const { gate, store } = recordedGate();
    const teller = gate.forAgent({ name: 'teller', tools: ['oracle', 'vault'] });
    const seer = teller.narrow(['oracle'], 'teller/seer');
    const sub = await agentsTools(seer);
    const subModel = new ScriptedModel([
      [functionCall('oracle', { seed: 'ash' }, { callId: 's1' })],
      [functionCall('vault', { door: 'north' }, { callId: 's2' })],
      [assistantMessage('the ash turns once')],
    ]);
    const seerAgent = new Agent({
      name: 'seer',
      instructions: 'Read omens.',
      model: subModel,
      tools: sub.tools,
    });
    const parent = await agentsTools(teller);
    const parentModel = new ScriptedModel([
      [functionCall('ask_seer', { input: 'what does the ash say?' }, { callId: 'p1' })],
      [assistantMessage('the seer has spoken')],
    ]);
    const tellerAgent = new Agent({
      name: 'teller',
      instructions: 'Ask the seer.',
      model: parentModel,
      tools: [
        ...parent.tools,
        seerAgent.asTool({
          toolName: 'ask_seer',
          toolDescription: 'Asks the seer.',
          runConfig: sub.runOptions,
        }),
      ],
    });
    const result = await run(tellerAgent, 'ask', parent.runOptions);
    expect(result.finalOutput).toBe('the seer has spoken');
    expect(sub.tools.map((tool) => tool.name)).toEqual(['oracle']);
    expect(ran.vault).toBe(0);
    const refused = toolOutputsSent(subModel, 2).get('s2') as { text: string };
    expect(JSON.parse(refused.text)).toMatchObject({ code: 'CAPABILITY_VIOLATION' });
    const events = await ledgerEvents(store);
    expect(events.map((event) => `${event.kind} ${event.actor}`)).toEqual([
      'agent.derived teller',
      'tool.called teller/seer',
      'policy.decided teller/seer',
      'tool.returned teller/seer',
      'tool.called teller/seer',
      'tool.returned teller/seer',
    ]);
    expect(events[0]?.payload).toEqual({ agent: 'teller/seer', parent: 'teller', tools: ['oracle'] });
    expect(events[4]?.payload).toMatchObject({ tool: 'vault' });
  });

  it('refuses to derive a subagent wider than its parent', async () => {
    const { gate } = recordedGate();
    const teller = gate.forAgent({ name: 'teller', tools: ['oracle'] });
    expect(() => teller.narrow(['oracle', 'vault'], 'teller/seer')).toThrow(/not granted: "vault"/);
  });
});
