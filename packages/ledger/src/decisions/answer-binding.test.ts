import { RulePolicy, ToolGate } from '@toolgate/core';
import { describe, expect, it } from 'vitest';
import { steppingClock } from '../chain/clock.js';
import { MemoryStore } from '../memory-store.js';
import { LedgerRecorder } from '../recorder.js';
import { readAll } from '../store.js';
import { eachEvent, rewrittenLedger } from '../test-support/rewritten.js';
import { counter, toolRegistry } from '../testing/tools.js';
import { parametersDigest, verifyDecisions } from './index.js';

/** A real gate asking a named approver about `chatty`, recorded with its policy. */
async function approvedRun() {
  const store = new MemoryStore({ clock: steppingClock() });
  const recorder = new LedgerRecorder(store, { runId: 'run-1' });
  const document = { default: 'deny' as const, rules: [{ tools: ['chatty'], decision: 'ask' as const }] };
  await recorder.recordPolicy(document);
  const gate = new ToolGate(toolRegistry(), {
    recorder,
    policy: new RulePolicy(document),
    approver: () => ({ approved: true, by: 'ana@example.com', reason: 'looks fine' }),
    callIds: counter(),
  });
  const teller = gate.forAgent({ name: 'teller', tools: ['chatty'] });
  expect(await teller.callTool('chatty', { words: 2 })).toMatchObject({ isError: false });
  const events = await readAll(store.read());
  await store.close();
  const called = events.find((event) => event.kind === 'tool.called')!;
  const decided = events.find((event) => event.kind === 'policy.decided')!;
  return { events, called, decided };
}

describe('approvals bound to the parameters they approved', () => {
  it('records who answered and the digest of the exact parameters, and verify --decisions agrees', async () => {
    const { events, decided } = await approvedRun();
    expect(decided.payload).toMatchObject({
      decision: 'allow',
      answer: {
        approved: true,
        by: 'ana@example.com',
        parametersDigest: parametersDigest({ words: 2 }),
      },
    });
    expect(await verifyDecisions(eachEvent(events))).toEqual({ ok: true, agreed: 1, faults: [] });
  });

  it('catches an approval moved onto other parameters (the call record rewritten)', async () => {
    const { events, called, decided } = await approvedRun();
    const forged = await rewrittenLedger(events, called.seq, (payload) => {
      payload.parameters = { words: 2000 };
    });
    const result = await verifyDecisions(eachEvent(forged));
    expect(result.ok).toBe(false);
    expect(result.faults).toEqual([
      expect.objectContaining({
        seq: decided.seq,
        reason: `its answer is bound to parameters with digest ${parametersDigest({ words: 2 })}, but the call recorded parameters with digest ${parametersDigest({ words: 2000 })}: the answer was given for other parameters, or a record was edited`,
      }),
    ]);
  });

  it('refuses an approval that carries no digest', async () => {
    const { events, decided } = await approvedRun();
    const forged = await rewrittenLedger(events, decided.seq, (payload) => {
      delete (payload.answer as Record<string, unknown>).parametersDigest;
    });
    const [fault] = (await verifyDecisions(eachEvent(forged))).faults;
    expect(fault).toMatchObject({
      seq: decided.seq,
      reason: 'its approval carries no parametersDigest: it is not bound to the parameters it approved',
    });
  });
});
