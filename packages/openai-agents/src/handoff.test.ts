import { Agent, run } from '@openai/agents';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents/testing';
import { type AgentHandle, ToolGate } from '@toolgate/core';
import { LedgerRecorder, MemoryStore, ReplaySession, replayRegistry, steppingClock } from '@toolgate/ledger';
import { describe, expect, it } from 'vitest';
import { agentsTools } from './agents-tools.js';
import { counter, ledgerEvents, ledgerLines, ran, recordedGate } from './test-support/fixtures.js';

/** triage → clerk → auditor, each on its own scripted model and its own gated tools. */
async function handoffChain(handles: { triage: AgentHandle; clerk: AgentHandle; auditor: AgentHandle }) {
  const triageTools = await agentsTools(handles.triage);
  const clerkTools = await agentsTools(handles.clerk);
  const auditorTools = await agentsTools(handles.auditor);
  const auditor = new Agent({
    name: 'auditor',
    instructions: 'Check.',
    model: new ScriptedModel([
      [functionCall('painter', { subject: 'the books' }, { callId: 'a1' })],
      [assistantMessage('filed and checked')],
    ]),
    tools: auditorTools.tools,
  });
  const clerk = new Agent({
    name: 'clerk',
    instructions: 'File.',
    model: new ScriptedModel([
      [functionCall('scribe', { line: 'handed over' }, { callId: 'k1' })],
      [functionCall('vault', { door: 'north' }, { callId: 'k2' })],
      [functionCall('oracle', { seed: 'not mine' }, { callId: 'k3' })],
      [functionCall('transfer_to_auditor', {}, { callId: 'k4' })],
    ]),
    tools: clerkTools.tools,
    handoffs: [auditor],
  });
  const triage = new Agent({
    name: 'triage',
    instructions: 'Route.',
    model: new ScriptedModel([
      [functionCall('oracle', { seed: 'who' }, { callId: 't1' })],
      [functionCall('transfer_to_clerk', {}, { callId: 't2' })],
    ]),
    tools: triageTools.tools,
    handoffs: [clerk],
  });
  return (await run(triage, 'help', triageTools.runOptions)).finalOutput;
}

const manifests = {
  triage: { name: 'triage', tools: ['oracle'] },
  clerk: { name: 'clerk', tools: ['scribe'] },
  auditor: { name: 'auditor', tools: ['painter'] },
};

function handlesOf(gate: ToolGate) {
  return {
    triage: gate.forAgent(manifests.triage),
    clerk: gate.forAgent(manifests.clerk),
    auditor: gate.forAgent(manifests.auditor),
  };
}

describe('a handoff chain through the Agents loop', () => {
  it('records each handoff as lineage before the handed-to agent acts, and its calls under its own name and grant', async () => {
    const { gate, store } = recordedGate();
    const vaultsBefore = ran.vault;
    expect(await handoffChain(handlesOf(gate))).toBe('filed and checked');
    expect(ran.vault).toBe(vaultsBefore);
    const events = await ledgerEvents(store);
    expect(
      events.map((event) => {
        const payload = event.payload as { tool?: string; agent?: string; error?: { code: string } };
        if (event.kind === 'agent.derived') return `${event.actor} → ${payload.agent}`;
        return `${event.kind} ${event.actor} ${payload.tool}${payload.error ? ` ${payload.error.code}` : ''}`;
      }),
    ).toEqual([
      'tool.called triage oracle',
      'policy.decided triage oracle',
      'tool.returned triage oracle',
      'triage → clerk',
      'tool.called clerk scribe',
      'policy.decided clerk scribe',
      'tool.returned clerk scribe',
      'tool.called clerk vault',
      'tool.returned clerk vault CAPABILITY_VIOLATION',
      'tool.called clerk oracle',
      'tool.returned clerk oracle CAPABILITY_VIOLATION',
      'clerk → auditor',
      'tool.called auditor painter',
      'policy.decided auditor painter',
      'tool.returned auditor painter',
    ]);
    const derived = events.filter((event) => event.kind === 'agent.derived').map((event) => event.payload);
    expect(derived).toEqual([
      {
        agent: 'clerk',
        parent: 'triage',
        tools: ['scribe'],
        via: { kind: 'handoff', tool: 'transfer_to_clerk', callId: 't2' },
      },
      {
        agent: 'auditor',
        parent: 'clerk',
        tools: ['painter'],
        via: { kind: 'handoff', tool: 'transfer_to_auditor', callId: 'k4' },
      },
    ]);
    // the handed-to agent's refusals keep the arguments the model sent (Agents' hook passes none)
    const refused = events.filter(
      (event) => event.kind === 'tool.called' && (event.payload as { tool: string }).tool !== 'scribe',
    );
    expect(refused.map((event) => (event.payload as { parameters: unknown }).parameters)).toEqual([
      { seed: 'who' },
      { door: 'north' },
      { seed: 'not mine' },
      { subject: 'the books' },
    ]);
  });

  it('replays the chain with every tool switched off, writing the same bytes', async () => {
    const { gate, store } = recordedGate();
    await handoffChain(handlesOf(gate));
    const lines = await ledgerLines(store);
    const replay = new ReplaySession(await ledgerEvents(store), { mode: 'strict' });
    const replayStore = new MemoryStore({ clock: steppingClock() });
    const recorder = new LedgerRecorder(replayStore, { runId: 'agents-1' });
    let now = 0;
    const replayGate = new ToolGate(
      replayRegistry(replay),
      replay.gateOptions({ recorder, callIds: counter(), clock: () => (now += 1) }),
    );
    expect(await handoffChain(handlesOf(replayGate))).toBe('filed and checked');
    expect(replay.divergences).toEqual([]);
    expect(() => replay.assertComplete()).not.toThrow();
    expect(await ledgerLines(replayStore)).toEqual(lines);
  });
});
