import { ToolGate, type ToolResult } from '@toolgate/core';
import { describe, expect, it } from 'vitest';
import { steppingClock } from '../chain/clock.js';
import type { LedgerEvent } from '../chain/event.js';
import { readLedgerFile } from '../file/read-file.js';
import { MemoryStore } from '../memory-store.js';
import { LedgerRecorder } from '../recorder.js';
import { readAll } from '../store.js';
import { runScenario, scenarioApprover, scenarioPolicy, scenarioRegistry } from '../testing/scenario.js';
import { counter } from '../testing/tools.js';
import { verifyLedgerFile } from '../verify/verify.js';
import { replayRegistry } from './registry.js';
import { ReplaySession } from './session.js';

// Written by the gate of commit c16a7e2 (decisions still sentences): the ledger scenario, then two
// caller decisions, an ask with no approver and an ask whose approver threw. Do not regenerate it.
const oldLedger = new URL('../chain/fixtures/written-before-decisions-as-data.ledger.jsonl', import.meta.url)
  .pathname;

/** Replays `events` strictly through the scenario (and the calls the old fixture adds after it). */
async function replayed(events: LedgerEvent[], runId: string, extra: boolean) {
  const replay = new ReplaySession(events, { mode: 'strict' });
  const store = new MemoryStore({ clock: steppingClock() });
  const recorder = new LedgerRecorder(store, { runId });
  const gate = new ToolGate(replayRegistry(replay), replay.gateOptions({ recorder, callIds: counter() }));
  const results = await runScenario(gate, recorder);
  if (extra) {
    recorder.setTurn(4);
    const teller = gate.forAgent({ name: 'teller', tools: ['brittle'] });
    results.push(await teller.callTool('brittle', { why: 'glass' }));
    results.push(await teller.callTool('brittle', { why: 'stone' }));
    const critic = gate.forAgent({ name: 'critic', tools: ['oracle'] });
    results.push(await critic.callTool('oracle', { seed: 'y' }));
    results.push(await critic.callTool('oracle', { seed: 'x' }));
  }
  replay.assertComplete();
  const written = await readAll(store.read());
  return { replay, results, decided: written.filter((event) => event.kind === 'policy.decided') };
}

describe('decisions recorded as data', () => {
  it('replays a ledger written before decisions were data (answers read from its sentences, once)', async () => {
    expect(await verifyLedgerFile(oldLedger)).toMatchObject({ ok: true, count: 48 });
    const events = await readAll(readLedgerFile(oldLedger));
    const { replay, decided } = await replayed(events, 'old-decisions', true);
    expect(replay.divergences).toEqual([]);
    const answers = boundAnswers(decided);
    expect(answers).toEqual([
      { from: 'approver', approved: true, reason: 'glass is cheap' },
      { from: 'approver', approved: false },
      { from: 'caller', approved: true, by: 'alice', reason: 'ok: really' },
      { from: 'caller', approved: false, by: 'bob' },
      { from: 'nobody', approved: false },
      { from: 'failed', approved: false, reason: 'approval service down' },
    ]);
    // the sentences people read come out as the old gate wrote them
    const reasons = decided.map((event) => (event.payload as { reason: string }).reason);
    const recordedReasons = events
      .filter((event) => event.kind === 'policy.decided')
      .map((event) => (event.payload as { reason: string }).reason);
    expect(reasons).toEqual(recordedReasons);
  });

  it('leaves a replay intact when every decision sentence is reworded (no code reads them back)', async () => {
    const store = new MemoryStore({ clock: steppingClock() });
    const recorder = new LedgerRecorder(store, { runId: 'grove' });
    const gate = new ToolGate(scenarioRegistry(), {
      recorder,
      policy: scenarioPolicy,
      approver: scenarioApprover,
      callIds: counter(),
    });
    const live = await runScenario(gate, recorder);
    const reworded = (await readAll(store.read())).map((event) =>
      event.kind === 'policy.decided'
        ? { ...event, payload: { ...(event.payload as object), reason: 'worded another way entirely' } }
        : event,
    );
    expect(reworded.filter((event) => event.kind === 'policy.decided').length).toBeGreaterThan(5);
    const { replay, results, decided } = await replayed(reworded as LedgerEvent[], 'grove', false);
    expect(replay.divergences).toEqual([]);
    expect(results).toEqual(live);
    expect(boundAnswers(decided)).toEqual([
      { from: 'approver', approved: true, reason: 'glass is cheap' },
      { from: 'approver', approved: false },
    ]);
  });

  it("replays a ledger whose sentences an older core worded differently, to the letter (a refusal's message too)", async () => {
    const store = new MemoryStore({ clock: steppingClock() });
    const recorder = new LedgerRecorder(store, { runId: 'grove' });
    const gate = new ToolGate(scenarioRegistry(), {
      recorder,
      policy: scenarioPolicy,
      approver: scenarioApprover,
      callIds: counter(),
    });
    await runScenario(gate, recorder);
    // as if another wording of core had written it: each decision's sentence and every message
    // that carries it (a refusal says why) read otherwise; no verdict or answer changes
    const recorded = await readAll(store.read());
    const sentences = new Map<string, string>();
    for (const event of recorded) {
      if (event.kind !== 'policy.decided') continue;
      const { callId, reason } = event.payload as { callId: string; reason: string };
      sentences.set(callId, reason);
    }
    const older = recorded.map((event) => {
      const payload = event.payload as { callId?: string; reason?: string; error?: { message: string } };
      const sentence = payload.callId === undefined ? undefined : sentences.get(payload.callId);
      if (sentence === undefined) return event;
      if (event.kind === 'policy.decided')
        return { ...event, payload: { ...payload, reason: `older: ${sentence}` } };
      if (event.kind === 'tool.returned' && payload.error?.message.includes(sentence)) {
        const message = payload.error.message.replace(sentence, `older: ${sentence}`);
        return { ...event, payload: { ...payload, error: { ...payload.error, message } } };
      }
      return event;
    }) as LedgerEvent[];
    const refusals = older.filter(
      (event) => event.kind === 'tool.returned' && JSON.stringify(event.payload).includes('older: '),
    );
    expect(refusals.length).toBeGreaterThan(0);
    const { replay, results, decided } = await replayed(older, 'grove', false);
    expect(replay.divergences).toEqual([]);
    // the replay hands back what the run handed back then, in that run's words
    for (const refusal of refusals) {
      const { callId, error } = refusal.payload as { callId: string; error: { message: string } };
      const answered = (results as ToolResult[]).find((result) => result.callId === callId);
      expect(answered).toMatchObject({ isError: true, error });
    }
    expect(decided.map((event) => (event.payload as { reason: string }).reason)).toEqual(
      older
        .filter((event) => event.kind === 'policy.decided')
        .map((event) => (event.payload as { reason: string }).reason),
    );
  });
});

/** The recorded answers, each checked to carry its parameters' digest, without it. */
function boundAnswers(decided: readonly { payload: unknown }[]): unknown[] {
  return decided.flatMap((event) => {
    const answer = (event.payload as { answer?: Record<string, unknown> }).answer;
    if (!answer) return [];
    const { parametersDigest, ...rest } = answer;
    expect(parametersDigest).toMatch(/^sha256:[0-9a-f]{64}$/);
    return [rest];
  });
}
