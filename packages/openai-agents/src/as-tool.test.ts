import { Agent, run } from '@openai/agents';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents/testing';
import { RulePolicy, ToolGate } from '@toolgate/core';
import { LedgerRecorder, MemoryStore, ReplaySession, replayRegistry, steppingClock } from '@toolgate/ledger';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { agentTool } from './agent-tool.js';
import { agentsTools } from './agents-tools.js';
import {
  counter,
  ledgerEvents,
  ledgerLines,
  ran,
  recordedGate,
  toolOutputsSent,
} from './test-support/fixtures.js';

const policy = (askSeer: 'allow' | 'deny') =>
  new RulePolicy({
    rules: [
      { tools: ['vault'], decision: 'deny', reason: 'the vault stays shut' },
      {
        tools: ['ask_seer'],
        decision: askSeer,
        reason: `the seer is ${askSeer === 'allow' ? 'in' : 'away'}`,
      },
      { tools: ['oracle'], decision: 'allow', reason: 'harmless' },
    ],
  });

/** A teller that calls its seer through Agents' own `seer.asTool()`, put behind the gate. */
async function tellerAndAsToolSeer(gate: ToolGate) {
  const teller = gate.forAgent({ name: 'teller', tools: ['oracle', 'vault', 'ask_seer'] });
  const seerTools = await agentsTools(teller.narrow(['oracle'], 'seer'));
  const seerModel = new ScriptedModel([
    [functionCall('oracle', { seed: 'ash' }, { callId: 's1' })],
    [functionCall('vault', { door: 'north' }, { callId: 's2' })],
    [assistantMessage('the ash turns once')],
  ]);
  const seer = new Agent({
    name: 'seer',
    instructions: 'Read omens.',
    model: seerModel,
    tools: seerTools.tools,
  });
  // runConfig as for any subagent: Agents passes a nested run no toolErrorFormatter of its parent's
  const asTool = seer.asTool({
    toolName: 'ask_seer',
    toolDescription: 'Asks the seer.',
    runConfig: seerTools.runOptions,
  });
  gate.registry.register(agentTool({ asTool, tools: seerTools }));
  const tellerTools = await agentsTools(teller);
  const tellerModel = new ScriptedModel([
    [functionCall('ask_seer', { input: 'what does the ash say?' }, { callId: 'p1' })],
    [assistantMessage('the seer has spoken')],
  ]);
  const tellerAgent = new Agent({
    name: 'teller',
    instructions: 'Ask the seer.',
    model: tellerModel,
    tools: tellerTools.tools,
  });
  const result = await run(tellerAgent, 'ask', tellerTools.runOptions);
  return { output: result.finalOutput, tellerModel, seerModel, tellerTools };
}

const line = (event: { kind: string; actor: string; payload: unknown }) => {
  const payload = event.payload as { tool?: string; agent?: string; via?: { callId: string } };
  if (event.kind === 'agent.derived')
    return `${event.actor} → ${payload.agent}${payload.via ? ` in ${payload.via.callId}` : ''}`;
  return `${event.kind} ${event.actor} ${payload.tool}`;
};

describe("Agents' own agent.asTool() through the gate (agentTool({ asTool }))", () => {
  it('records the asTool call, policy-judged, with its arguments and output, and the inner calls as its lineage children', async () => {
    const { gate, store } = recordedGate({ policy: policy('allow') });
    const vaultsBefore = ran.vault;
    const { output, tellerModel, tellerTools } = await tellerAndAsToolSeer(gate);
    expect(tellerTools.tools.map((tool) => tool.name)).toContain('ask_seer');
    expect(output).toBe('the seer has spoken');
    expect(ran.vault).toBe(vaultsBefore);
    expect(toolOutputsSent(tellerModel, 1).get('p1')).toMatchObject({ text: '"the ash turns once"' });
    const events = await ledgerEvents(store);
    expect(events.map(line)).toEqual([
      'tool.called teller ask_seer',
      'policy.decided teller ask_seer',
      'teller → seer',
      'teller → seer in call-0',
      'tool.called seer oracle',
      'policy.decided seer oracle',
      'tool.returned seer oracle',
      'tool.called seer vault',
      'tool.returned seer vault',
      'tool.returned teller ask_seer',
    ]);
    expect(events[0]).toMatchObject({
      payload: { callId: 'call-0', parameters: { input: 'what does the ash say?' } },
    });
    expect(events[1]?.payload).toMatchObject({ decision: 'allow' });
    expect(events[3]?.payload).toEqual({
      agent: 'seer',
      parent: 'teller',
      tools: ['oracle'],
      via: { kind: 'tool', tool: 'ask_seer', callId: 'call-0' },
    });
    expect(events[9]?.payload).toMatchObject({ isError: false, output: 'the ash turns once' });
  });

  it('never runs the inner agent when policy denies the asTool call, and tells the model why', async () => {
    const { gate, store } = recordedGate({ policy: policy('deny') });
    const { output, tellerModel, seerModel } = await tellerAndAsToolSeer(gate);
    expect(output).toBe('the seer has spoken');
    expect(seerModel.calls).toHaveLength(0);
    const sent = toolOutputsSent(tellerModel, 1).get('p1') as { text: string };
    expect(JSON.parse(sent.text)).toEqual({
      code: 'PERMISSION_DENIED',
      message: expect.stringContaining('the seer is away'),
    });
    expect((await ledgerEvents(store)).map(line)).toEqual([
      'tool.called teller ask_seer',
      'policy.decided teller ask_seer',
      'tool.returned teller ask_seer',
    ]);
  });

  it('replays with the asTool tool registered in the replay, every other tool switched off, writing the same bytes', async () => {
    const { gate, store } = recordedGate({ policy: policy('allow') });
    await tellerAndAsToolSeer(gate);
    const replay = new ReplaySession(await ledgerEvents(store), { mode: 'strict' });
    const replayStore = new MemoryStore({ clock: steppingClock() });
    const recorder = new LedgerRecorder(replayStore, { runId: 'agents-1' });
    let now = 0;
    const replayGate = new ToolGate(
      replayRegistry(replay),
      replay.gateOptions({ recorder, callIds: counter(), clock: () => (now += 1) }),
    );
    expect((await tellerAndAsToolSeer(replayGate)).output).toBe('the seer has spoken');
    expect(replay.divergences).toEqual([]);
    expect(() => replay.assertComplete()).not.toThrow();
    expect(await ledgerLines(replayStore)).toEqual(await ledgerLines(store));
  });

  it('refuses an asTool with parameters of its own unless given them as a zod object, then records its calls and lineage', async () => {
    const { gate, store } = recordedGate({ policy: policy('allow') });
    const teller = gate.forAgent({ name: 'teller', tools: ['oracle', 'ask_seer'] });
    const seerTools = await agentsTools(teller.narrow(['oracle'], 'seer'));
    const seer = new Agent({
      name: 'seer',
      instructions: 'Read omens.',
      model: new ScriptedModel([
        [functionCall('oracle', { seed: 'ash' }, { callId: 's1' })],
        [assistantMessage('deep ash')],
      ]),
      tools: seerTools.tools,
    });
    const parameters = z.object({ seed: z.string(), depth: z.number() });
    const asTool = seer.asTool({
      toolName: 'ask_seer',
      toolDescription: 'Asks the seer.',
      parameters,
      runConfig: seerTools.runOptions,
    });
    expect(() => agentTool({ asTool })).toThrow(/takes parameters \(seed, depth\).*pass the same parameters/);
    const input = z.object({
      seed: z.string().describe('Any text.'),
      depth: z.number().describe('How deep to look.'),
    });
    gate.registry.register(agentTool({ asTool, input, tools: seerTools }));
    const refused = await teller.callTool('ask_seer', { seed: 'ash', depth: 'deep' });
    expect(refused).toMatchObject({ isError: true, error: { code: 'INVALID_PARAMETERS' } });
    const result = await teller.callTool('ask_seer', { seed: 'ash', depth: 2 });
    expect(result).toMatchObject({ isError: false, output: 'deep ash' });
    // asTool runs the agent on a fork of the run context when it has parameters: the fork acts too
    expect((await ledgerEvents(store)).map(line).slice(-8)).toEqual([
      'tool.called teller ask_seer',
      'policy.decided teller ask_seer',
      'teller → seer',
      'teller → seer in call-1',
      'tool.called seer oracle',
      'policy.decided seer oracle',
      'tool.returned seer oracle',
      'tool.returned teller ask_seer',
    ]);
  });

  it('warns once, naming the tool and what to do, when an agent holds agent.asTool() straight among gated tools', async () => {
    const { gate, store } = recordedGate({ policy: policy('allow') });
    const teller = gate.forAgent({ name: 'teller', tools: ['oracle'] });
    const seerModel = new ScriptedModel([[assistantMessage('unseen')]]);
    const seer = new Agent({ name: 'seer', instructions: 'Read omens.', model: seerModel });
    const tellerTools = await agentsTools(teller);
    const tellerAgent = new Agent({
      name: 'teller',
      instructions: 'Ask the seer.',
      model: new ScriptedModel([
        [functionCall('ask_seer', { input: 'hm?' }, { callId: 'p1' })],
        [functionCall('ask_seer', { input: 'and?' }, { callId: 'p2' })],
        [assistantMessage('done')],
      ]),
      tools: [...tellerTools.tools, seer.asTool({ toolName: 'ask_seer', toolDescription: 'Asks the seer.' })],
    });
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    try {
      await run(tellerAgent, 'ask', tellerTools.runOptions);
      const warnings = warn.mock.calls.filter(([, options]) => {
        return (options as { code?: string } | undefined)?.code === 'TOOLGATE_UNGATED_AGENT_TOOL';
      });
      expect(warnings).toHaveLength(1);
      expect(String(warnings[0]?.[0])).toMatch(
        /agent "teller" holds .* "ask_seer" .*go around the gate.*agentTool\(\{ asTool, tools \}\)/,
      );
    } finally {
      warn.mockRestore();
    }
    // what the warning is about: the seer ran, and the ledger holds nothing of it
    expect(seerModel.calls).toHaveLength(2);
    expect((await ledgerEvents(store)).map(line)).toEqual([]);
  });
});
