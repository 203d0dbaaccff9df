import { Agent, run } from '@openai/agents';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents/testing';
import { describe, expect, it } from 'vitest';
import { agentsTools } from './agents-tools.js';
import { ledgerEvents, ran, recordedGate } from './test-support/fixtures.js';

describe('a handoff chain through the Agents loop', () => {
  it("records each agent's calls under its own name and grant, the handed-to agent's refusals included", async () => {
    const { gate, store } = recordedGate();
    const triageTools = await agentsTools(gate.forAgent({ name: 'triage', tools: ['oracle'] }));
    const clerkTools = await agentsTools(gate.forAgent({ name: 'clerk', tools: ['scribe'] }));
    const clerkModel = new ScriptedModel([
      [functionCall('scribe', { line: 'handed over' }, { callId: 'k1' })],
      [functionCall('vault', { door: 'north' }, { callId: 'k2' })],
      [functionCall('oracle', { seed: 'not mine' }, { callId: 'k3' })],
      [assistantMessage('filed')],
    ]);
    const clerk = new Agent({
      name: 'clerk',
      instructions: 'File.',
      model: clerkModel,
      tools: clerkTools.tools,
    });
    const triageModel = new ScriptedModel([
      [functionCall('oracle', { seed: 'who' }, { callId: 't1' })],
      [functionCall('transfer_to_clerk', {}, { callId: 't2' })],
    ]);
    const triage = new Agent({
      name: 'triage',
      instructions: 'Route.',
      model: triageModel,
      tools: triageTools.tools,
      handoffs: [clerk],
    });
    const vaultsBefore = ran.vault;
    const result = await run(triage, 'help', triageTools.runOptions);
    expect(result.finalOutput).toBe('filed');
    expect(ran.vault).toBe(vaultsBefore);
    const returned = (await ledgerEvents(store)).filter((event) => event.kind === 'tool.returned');
    expect(
      returned.map((event) => {
        const payload = event.payload as { tool: string; error?: { code: string } };
        return `${event.actor} ${payload.tool} ${payload.error?.code ?? 'ok'}`;
      }),
    ).toEqual([
      'triage oracle ok',
      'clerk scribe ok',
      'clerk vault CAPABILITY_VIOLATION',
      'clerk oracle CAPABILITY_VIOLATION',
    ]);
  });
});
