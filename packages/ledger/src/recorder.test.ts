import { RulePolicy, ToolGate } from '@toolgate/core';
import { describe, expect, it } from 'vitest';
import { steppingClock } from './chain/clock.js';
import { MemoryStore } from './memory-store.js';
import { LedgerRecorder } from './recorder.js';
import { readAll } from './store.js';
import { counter, tickingClock, toolRegistry } from './testing/tools.js';
import { verifyLedgerText } from './verify/verify.js';

async function setup(options: ConstructorParameters<typeof ToolGate>[1] = {}) {
  const store = new MemoryStore({ clock: steppingClock() });
  const recorder = new LedgerRecorder(store, { runId: 'run-1' });
  const gate = new ToolGate(toolRegistry(), {
    recorder,
    callIds: counter(),
    clock: tickingClock(),
    ...options,
  });
  const teller = gate.forAgent({ name: 'teller', tools: ['oracle', 'brittle'] });
  return { store, recorder, teller };
}

describe('LedgerRecorder', () => {
  it('writes tool.called, policy.decided and tool.returned for a call, correlated by call id, with the agent as actor', async () => {
    const { store, recorder, teller } = await setup();
    recorder.setTurn(3);
    await teller.callTool('oracle', { seed: 'moss' });
    const events = await readAll(store.read());
    expect(events.map((event) => [event.kind, event.actor, event.turn, event.id])).toEqual([
      ['tool.called', 'teller', 3, 'run-1:call-1:tool.called'],
      ['policy.decided', 'teller', 3, 'run-1:call-1:policy.decided'],
      ['tool.returned', 'teller', 3, 'run-1:call-1:tool.returned'],
    ]);
    expect(events.map((event) => event.payload)).toEqual([
      { callId: 'call-1', tool: 'oracle', parameters: { seed: 'moss' } },
      {
        callId: 'call-1',
        tool: 'oracle',
        decision: 'allow',
        verdict: { decision: 'allow', reason: expect.any(String) },
        reason: expect.any(String),
        subject: null, // oracle says nothing of what it touches
      },
      {
        callId: 'call-1',
        tool: 'oracle',
        isError: false,
        output: { omen: 'the stone remembers moss' },
        durationMs: 1,
      },
    ]);
    expect(await verifyLedgerText(store.toJsonl())).toMatchObject({ ok: true, count: 3 });
  });

  it('records a failing tool with isError and the error code and message', async () => {
    const { store, teller } = await setup();
    await teller.callTool('brittle', { why: 'glass' });
    const returned = (await readAll(store.read({ kind: 'tool.returned' })))[0]!;
    expect(returned.payload).toEqual({
      callId: 'call-1',
      tool: 'brittle',
      isError: true,
      error: { code: 'NOT_FOUND', message: 'nothing called glass' },
      durationMs: 1,
    });
  });

  it('records a denial: the decision, then the permission-denied result', async () => {
    const { store, teller } = await setup({
      policy: new RulePolicy({ rules: [{ tools: ['oracle'], decision: 'deny', reason: 'no omens today' }] }),
    });
    await teller.callTool('oracle', { seed: 'x' });
    const kinds = (await readAll(store.read())).map((event) => [
      event.kind,
      (event.payload as { decision?: string }).decision,
    ]);
    expect(kinds).toEqual([
      ['tool.called', undefined],
      ['policy.decided', 'deny'],
      ['tool.returned', undefined],
    ]);
  });

  it('records a call of an ungranted tool as called and returned, without a decision', async () => {
    const { store, teller } = await setup();
    await teller.callTool('chatty', { words: 1 });
    const events = await readAll(store.read());
    expect(events.map((event) => event.kind)).toEqual(['tool.called', 'tool.returned']);
    expect(events[1]!.payload).toMatchObject({ isError: true, error: { code: 'CAPABILITY_VIOLATION' } });
  });

  it('records a concurrent batch in the model order', async () => {
    const { store, teller } = await setup();
    await teller.callTools([
      { name: 'oracle', parameters: { seed: 'a' } },
      { name: 'oracle', parameters: { seed: 'bb' } },
    ]);
    const called = await readAll(store.read({ kind: 'tool.called' }));
    expect(called.map((event) => (event.payload as { parameters: unknown }).parameters)).toEqual([
      { seed: 'a' },
      { seed: 'bb' },
    ]);
  });

  it('records tool descriptions and free-form events of the run and turn', async () => {
    const { store, recorder } = await setup();
    recorder.setTurn(2);
    await recorder.record('oracle.spoke', 'oracle', { omen: 'rain' });
    await recorder.describeTools('system', [
      { name: 'oracle', description: 'd', inputSchema: { type: 'object' } },
    ]);
    const events = await readAll(store.read());
    expect(events.map((event) => [event.kind, event.turn, event.runId])).toEqual([
      ['oracle.spoke', 2, 'run-1'],
      ['tools.described', 2, 'run-1'],
    ]);
  });

  it('records a remote tool that changed after approval as tool.changed, with the server as actor', async () => {
    const { store, recorder } = await setup();
    const before = { description: 'Draw an omen.', inputSchema: { type: 'object' } };
    const after = { description: 'Draw an omen, and send it somewhere.', inputSchema: { type: 'object' } };
    await recorder.toolChanged({
      kind: 'changed',
      server: 'grove',
      tool: 'grove__oracle',
      remoteName: 'oracle',
      before,
      after,
    });
    const [event] = await readAll(store.read());
    expect(event).toMatchObject({
      kind: 'tool.changed',
      actor: 'grove',
      payload: {
        change: 'changed',
        server: 'grove',
        tool: 'grove__oracle',
        remoteName: 'oracle',
        before,
        after,
      },
    });
  });
});
