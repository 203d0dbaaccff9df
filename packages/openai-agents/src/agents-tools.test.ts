import { run } from '@openai/agents';
import { assistantMessage, functionCall } from '@openai/agents/testing';
import { ToolGate } from '@toolgate/core';
import { describe, expect, it } from 'vitest';
import { agentsTools } from './agents-tools.js';
import {
  ledgerEvents,
  policy,
  ran,
  recordedGate,
  registry,
  scriptedAgent,
  toolOutputsSent,
} from './test-support/fixtures.js';

describe('agentsTools through a real Agents run loop', () => {
  it('offers exactly the granted tools that exist, and runs a granted call through the gate', async () => {
    const { gate, store } = recordedGate();
    const { tools, runOptions } = await agentsTools(
      gate.forAgent({ name: 'teller', tools: ['oracle', 'ghost'] }),
    );
    expect(tools.map((tool) => tool.name)).toEqual(['oracle']);
    const { agent, model } = scriptedAgent('teller', tools, [
      [functionCall('oracle', { seed: 'moss', depth: 3 }, { callId: 'c1' })],
      [assistantMessage('the moss turns')],
    ]);
    const result = await run(agent, 'read the stones', runOptions);
    expect(result.finalOutput).toBe('the moss turns');
    expect(toolOutputsSent(model, 1).get('c1')).toMatchObject({
      type: 'text',
      text: '{"omen":"the moss turns 3 times"}',
    });
    const events = await ledgerEvents(store);
    expect(events.map((event) => event.kind)).toEqual(['tool.called', 'policy.decided', 'tool.returned']);
    expect(events[0]?.payload).toMatchObject({ tool: 'oracle', parameters: { seed: 'moss', depth: 3 } });
    expect(events[2]?.payload).toMatchObject({ isError: false, output: { omen: 'the moss turns 3 times' } });
  });

  it('records a call to an ungranted tool as refused, with the arguments the model sent, and tells the model its code; the turn goes on', async () => {
    const { gate, store } = recordedGate();
    const { tools, runOptions } = await agentsTools(gate.forAgent({ name: 'teller', tools: ['oracle'] }));
    const { agent, model } = scriptedAgent('teller', tools, [
      [functionCall('vault', { door: 'north' }, { callId: 'c1' })],
      [assistantMessage('I may not open it')],
    ]);
    const result = await run(agent, 'open the vault', runOptions);
    expect(result.finalOutput).toBe('I may not open it');
    expect(ran.vault).toBe(0);
    const sent = toolOutputsSent(model, 1).get('c1') as { text: string };
    expect(JSON.parse(sent.text)).toEqual({
      code: 'CAPABILITY_VIOLATION',
      message: expect.stringContaining('"vault"'),
    });
    const events = await ledgerEvents(store);
    expect(events.map((event) => event.kind)).toEqual(['tool.called', 'tool.returned']);
    // Agents' hook for an unknown tool passes no arguments; the ledger still shows what was refused
    expect(events[0]).toMatchObject({
      actor: 'teller',
      payload: { tool: 'vault', parameters: { door: 'north' } },
    });
    expect(events[1]?.payload).toMatchObject({ isError: true, error: { code: 'CAPABILITY_VIOLATION' } });
  });

  it('refuses a granted tool the agent was not given (it did not exist) through a child granted nothing', async () => {
    const { gate, store } = recordedGate();
    const { tools, runOptions } = await agentsTools(
      gate.forAgent({ name: 'teller', tools: ['oracle', 'ghost'] }),
    );
    const { agent, model } = scriptedAgent('teller', tools, [
      [functionCall('ghost', { boo: true }, { callId: 'c1' })],
      [assistantMessage('no ghost')],
    ]);
    await run(agent, 'call the ghost', runOptions);
    const sent = toolOutputsSent(model, 1).get('c1') as { text: string };
    expect(JSON.parse(sent.text)).toMatchObject({ code: 'CAPABILITY_VIOLATION' });
    const events = await ledgerEvents(store);
    expect(events.map((event) => `${event.kind} ${event.actor}`)).toEqual([
      'agent.derived teller',
      'tool.called teller/unoffered',
      'tool.returned teller/unoffered',
    ]);
    expect(events[0]?.payload).toEqual({ agent: 'teller/unoffered', parent: 'teller', tools: [] });
    expect(events[1]?.payload).toMatchObject({ tool: 'ghost', parameters: { boo: true } });
  });

  it('without the run options Agents ends the turn on an unknown tool (what the options are for)', async () => {
    const { gate, store } = recordedGate();
    const { tools } = await agentsTools(gate.forAgent({ name: 'teller', tools: ['oracle'] }));
    const { agent } = scriptedAgent('teller', tools, [
      [functionCall('vault', { door: 'north' }, { callId: 'c1' })],
    ]);
    await expect(run(agent, 'open the vault')).rejects.toThrow(/vault/);
    expect(await ledgerEvents(store)).toEqual([]);
  });

  it('refuses a call policy denies, recorded, with PERMISSION_DENIED for the model', async () => {
    const { gate, store } = recordedGate();
    const { tools, runOptions } = await agentsTools(gate.forAgent({ name: 'teller', tools: ['vault'] }));
    const { agent, model } = scriptedAgent('teller', tools, [
      [functionCall('vault', { door: 'north' }, { callId: 'c1' })],
      [assistantMessage('shut')],
    ]);
    await run(agent, 'open the vault', runOptions);
    expect(ran.vault).toBe(0);
    const sent = toolOutputsSent(model, 1).get('c1') as { text: string };
    expect(JSON.parse(sent.text)).toEqual({
      code: 'PERMISSION_DENIED',
      message: expect.stringContaining('the vault stays shut'),
    });
    const events = await ledgerEvents(store);
    expect(events[0]?.payload).toMatchObject({ tool: 'vault', parameters: { door: 'north' } });
    expect(events[1]?.payload).toMatchObject({ verdict: { decision: 'deny' }, decision: 'deny' });
    expect(events[2]?.payload).toMatchObject({ isError: true, error: { code: 'PERMISSION_DENIED' } });
  });

  it('ends the run when the recorder fails, rather than going on unrecorded', async () => {
    const failing = {
      toolCalled: () => Promise.reject(new Error('disk full')),
      policyDecided: () => {},
      toolReturned: () => {},
    };
    const gate = new ToolGate(registry(), { policy, recorder: failing });
    const { tools, runOptions } = await agentsTools(gate.forAgent({ name: 'teller', tools: ['oracle'] }));
    const { agent } = scriptedAgent('teller', tools, [
      [functionCall('oracle', { seed: 'moss' }, { callId: 'c1' })],
      [assistantMessage('never')],
    ]);
    await expect(run(agent, 'go', runOptions)).rejects.toThrow(/disk full/);
  });

  it('never crashes the run on arguments that are not JSON: Agents holds the call, then answers it itself', async () => {
    const { gate, store } = recordedGate();
    const { tools, runOptions } = await agentsTools(gate.forAgent({ name: 'teller', tools: ['oracle'] }));
    const { agent, model } = scriptedAgent('teller', tools, [
      [functionCall('oracle', '{"seed": "moss"', { callId: 'c1' })],
      [assistantMessage('retrying later')],
    ]);
    // Agents cannot evaluate an approval function on them, so it holds such a call for approval
    const first = await run(agent, 'go', runOptions);
    expect(first.interruptions.map((item) => item.name)).toEqual(['oracle']);
    first.state.approve(first.interruptions[0]!);
    const result = await run(agent, first.state, runOptions);
    expect(result.finalOutput).toBe('retrying later');
    expect(toolOutputsSent(model, 1).get('c1')).toMatchObject({
      text: expect.stringContaining('valid JSON'),
    });
    expect(await ledgerEvents(store)).toEqual([]);
  });
});
