import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolGate } from './gate.js';
import type { AgentDerivedRecord, Recorder } from './recorder.js';
import { ToolRegistry } from './registry.js';
import { defineTool } from './tool.js';

const tool = (name: string) =>
  defineTool({ name, description: `The ${name} tool.`, input: z.object({}), run: () => name });

function setup() {
  const events: string[] = [];
  const derived: AgentDerivedRecord[] = [];
  const paths: (string | undefined)[] = [];
  const recorder: Recorder = {
    toolCalled: ({ agent, tool }) => void events.push(`${agent} called ${tool}`),
    policyDecided: () => {},
    toolReturned: () => {},
    agentDerived: (record) => {
      derived.push(record);
      events.push(`${record.parent} → ${record.agent}${record.via ? ` via ${record.via.tool}` : ''}`);
    },
  };
  const registry = new ToolRegistry().register(tool('paint')).register(tool('look'));
  const gate = new ToolGate(registry, {
    recorder,
    policy: {
      decide: (request) => {
        paths.push(request.agentPath);
        return { decision: 'allow', reason: 'ok' };
      },
    },
  });
  return { gate, events, derived, paths };
}

describe('AgentHandle.actingFor: an agent acting for another in one framework step', () => {
  it('keeps its own name and grant, and records the lineage with via once, before its first call', async () => {
    const { gate, events, derived, paths } = setup();
    const clerk = gate.forAgent({ name: 'clerk', tools: ['look'] });
    const acting = clerk.actingFor('triage', { kind: 'handoff', tool: 'transfer_to_clerk', callId: 't2' });
    expect(acting.manifest).toEqual(clerk.manifest);
    expect(acting.grant).toBe(clerk.grant);
    expect(await acting.callTool('look', {})).toMatchObject({ isError: false, output: 'look' });
    expect(await acting.callTool('paint', {})).toMatchObject({ error: { code: 'CAPABILITY_VIOLATION' } });
    expect(await clerk.callTool('look', {})).toMatchObject({ isError: false });
    expect(events).toEqual([
      'triage → clerk via transfer_to_clerk',
      'clerk called look',
      'clerk called paint',
      'clerk called look',
    ]);
    expect(derived).toEqual([
      {
        agent: 'clerk',
        parent: 'triage',
        tools: ['look'],
        via: { kind: 'handoff', tool: 'transfer_to_clerk', callId: 't2' },
      },
    ]);
    // policy judges the acting agent as it judges the agent's own calls: not as a subagent of triage
    expect(paths).toEqual([clerk.grant.agentPath, clerk.grant.agentPath]);
  });

  it("records a narrowed agent's own derivation before the lineage of its acting", async () => {
    const { gate, events } = setup();
    const lead = gate.forAgent({ name: 'lead', tools: ['look', 'paint'] });
    const seer = lead.narrow(['look'], 'seer');
    await seer.actingFor('lead', { kind: 'tool', tool: 'ask_seer', callId: 'call-0' }).callTool('look', {});
    expect(events).toEqual(['lead → seer', 'lead → seer via ask_seer', 'seer called look']);
  });
});
