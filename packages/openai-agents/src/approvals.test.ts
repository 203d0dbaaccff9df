import { run } from '@openai/agents';
import { assistantMessage, functionCall } from '@openai/agents/testing';
import { describe, expect, it } from 'vitest';
import { agentsTools } from './agents-tools.js';
import { ledgerEvents, ran, recordedGate, scriptedAgent, toolOutputsSent } from './test-support/fixtures.js';

/**
 * The clerk, granted `wire` and approving as alice, with a model that asks for one `wire` call
 * (`c1`) with `parameters`, then says `finalMessage`.
 */
async function clerkWiring(parameters: { to: string; amount: number }, finalMessage: string) {
  const { gate, store } = recordedGate();
  const { tools, runOptions } = await agentsTools(gate.forAgent({ name: 'clerk', tools: ['wire'] }), {
    approvedBy: 'alice',
  });
  const { agent, model } = scriptedAgent('clerk', tools, [
    [functionCall('wire', parameters, { callId: 'c1' })],
    [assistantMessage(finalMessage)],
  ]);
  return { store, agent, model, runOptions };
}

describe('policy ask as Agents needsApproval + interruption', () => {
  it('interrupts, and runs the call once approved, recording who approved', async () => {
    const { store, agent, model, runOptions } = await clerkWiring({ to: 'bob', amount: 5 }, 'sent');
    const before = ran.wire;
    const first = await run(agent, 'pay bob', runOptions);
    expect(first.interruptions.map((item) => item.name)).toEqual(['wire']);
    expect(ran.wire).toBe(before);
    // the ask is recorded as it is put, before anyone answers it; nothing else is
    const asked = await ledgerEvents(store);
    expect(asked.map((event) => [event.kind, event.actor, event.id])).toEqual([
      ['policy.asked', 'clerk', 'agents-1:c1:policy.asked'],
    ]);
    expect(asked[0]?.payload).toEqual({
      askId: 'c1',
      askedOf: 'alice',
      tool: 'wire',
      parameters: { to: 'bob', amount: 5 },
      verdict: { decision: 'ask', rule: 1, reason: 'money leaves' },
    });

    first.state.approve(first.interruptions[0]!);
    const second = await run(agent, first.state, runOptions);
    expect(second.finalOutput).toBe('sent');
    expect(ran.wire).toBe(before + 1);
    const sent = toolOutputsSent(model, 1).get('c1') as { text: string };
    expect(JSON.parse(sent.text)).toEqual({ sent: 5, to: 'bob' });
    const events = (await ledgerEvents(store)).slice(1); // after the policy.asked
    expect(events.map((event) => event.kind)).toEqual(['tool.called', 'policy.decided', 'tool.returned']);
    expect(events[1]?.payload).toMatchObject({
      verdict: { decision: 'ask' },
      decision: 'allow',
      reason: expect.stringMatching(/money leaves; approved by alice$/),
    });
  });

  it('interrupts, and never runs a rejected call, recording the rejection and telling the model its code', async () => {
    const { store, agent, model, runOptions } = await clerkWiring({ to: 'mallory', amount: 500 }, 'not sent');
    const before = ran.wire;
    const first = await run(agent, 'pay mallory', runOptions);
    first.state.reject(first.interruptions[0]!);
    const second = await run(agent, first.state, runOptions);
    expect(second.finalOutput).toBe('not sent');
    expect(ran.wire).toBe(before);
    const sent = toolOutputsSent(model, 1).get('c1') as { text: string };
    expect(JSON.parse(sent.text)).toEqual({
      code: 'PERMISSION_DENIED',
      message: expect.stringContaining('money leaves; not approved by alice'),
    });
    const events = (await ledgerEvents(store)).slice(1); // after the policy.asked
    expect(events.map((event) => event.kind)).toEqual(['tool.called', 'policy.decided', 'tool.returned']);
    expect(events[0]?.payload).toMatchObject({ tool: 'wire', parameters: { to: 'mallory', amount: 500 } });
    expect(events[1]?.payload).toMatchObject({ verdict: { decision: 'ask' }, decision: 'deny' });
    expect(events[2]?.payload).toMatchObject({ isError: true, error: { code: 'PERMISSION_DENIED' } });
  });

  it('records a rejection given with a message too (Agents then tells the model that message itself)', async () => {
    const { store, agent, model, runOptions } = await clerkWiring({ to: 'mallory', amount: 500 }, 'not sent');
    const before = ran.wire;
    const first = await run(agent, 'pay mallory', runOptions);
    first.state.reject(first.interruptions[0]!, { message: 'too much' });
    await run(agent, first.state, runOptions);
    expect(ran.wire).toBe(before);
    expect((toolOutputsSent(model, 1).get('c1') as { text: string }).text).toBe('too much');
    const events = (await ledgerEvents(store)).slice(1); // after the policy.asked
    expect(events.map((event) => event.kind)).toEqual(['tool.called', 'policy.decided', 'tool.returned']);
    expect(events[1]?.payload).toMatchObject({
      verdict: { decision: 'ask' },
      decision: 'deny',
      reason: expect.stringContaining('money leaves; not approved by alice: too much'),
    });
  });
});
