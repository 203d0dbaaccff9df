import { type PolicyDocument, RulePolicy, ToolGate, ToolRegistry } from '@toolgate/core';
import { describe, expect, it } from 'vitest';
import { steppingClock } from '../chain/clock.js';
import type { LedgerEvent } from '../chain/event.js';
import { MemoryStore } from '../memory-store.js';
import { LedgerRecorder } from '../recorder.js';
import { readAll } from '../store.js';
import { reader } from '../test-support/reader.js';
import { counter, toolRegistry } from '../testing/tools.js';
import { policyDigest, verifyDecisions } from './index.js';

const document: PolicyDocument = {
  default: 'deny',
  rules: [
    { tools: ['oracle'], decision: 'allow' },
    { tools: ['chatty'], decision: 'ask' },
    { tools: ['oracle', 'chatty'], paths: ['secrets/**'], decision: 'deny' },
  ],
};
const pathless: PolicyDocument = { default: 'deny', rules: document.rules.slice(0, 2) };

/** A real gate deciding by the policy, recorded to a memory ledger; returns the events. */
async function recordedRun(
  policy: PolicyDocument,
  options: { record?: boolean; digestOnly?: boolean; callerRefusal?: boolean } = {},
) {
  const store = new MemoryStore({ clock: steppingClock() });
  const recorder = new LedgerRecorder(store, { runId: 'run-1' });
  if (options.record ?? true)
    await recorder.recordPolicy(policy, { digestOnly: options.digestOnly ?? false });
  const gate = new ToolGate(toolRegistry(), {
    recorder,
    policy: new RulePolicy(policy),
    approver: () => false,
    callIds: counter(),
  });
  const teller = gate.forAgent({ name: 'teller', tools: ['oracle', 'brittle', 'chatty'] });
  await teller.callTool('oracle', { seed: 'moss' }); // allow
  await teller.callTool('brittle', { why: 'x' }); // deny by default
  await teller.callTool('chatty', { words: 2 }); // ask, refused by the approver
  // allowed by policy, refused by the caller (an app's own approval policy)
  if (options.callerRefusal)
    await teller.callTool(
      'oracle',
      { seed: 'fern' },
      { decision: { approved: false, by: 'app', reason: 'no' } },
    );
  const events = await readAll(store.read());
  await store.close();
  return events;
}

/** The ledger whole, re-sealed with one record's payload changed: its chain verifies. */
async function rewritten(
  events: LedgerEvent[],
  seq: number,
  change: (payload: Record<string, unknown>) => void,
) {
  const store = new MemoryStore({ clock: steppingClock() });
  for (const event of events) {
    const payload = structuredClone(event.payload) as Record<string, unknown>;
    if (event.seq === seq) change(payload);
    await store.append({
      id: event.id,
      runId: event.runId,
      turn: event.turn,
      kind: event.kind,
      actor: event.actor,
      payload: payload as never,
    });
  }
  return readAll(store.read());
}

async function* each(events: LedgerEvent[]) {
  yield* events;
}

describe('verify --decisions', () => {
  it('re-judges every recorded decision of a real gate and finds them all as the policy gives them', async () => {
    const events = await recordedRun(pathless, { callerRefusal: true });
    expect(events[0]).toMatchObject({ kind: 'policy.recorded', payload: { digest: policyDigest(pathless) } });
    const result = await verifyDecisions(each(events));
    expect(result).toEqual({ ok: true, agreed: 4, faults: [] });
    // an allowed call the caller refused (an app's own approval policy) is a deny, and verifies as one
    const refused = events.filter((event) => event.kind === 'policy.decided').at(-1);
    expect(refused?.payload).toMatchObject({ decision: 'deny', verdict: { decision: 'allow' } });
  });

  it('catches a forged decision, naming the seq and both verdicts', async () => {
    const events = await recordedRun(pathless);
    const refused = events.find(
      (event) => event.kind === 'policy.decided' && (event.payload as { tool: string }).tool === 'brittle',
    )!;
    const forged = await rewritten(events, refused.seq, (payload) => {
      payload.decision = 'allow';
      payload.verdict = { decision: 'allow', rule: 0, reason: 'rule 0 (oracle)' };
    });
    const result = await verifyDecisions(each(forged));
    expect(result.ok).toBe(false);
    expect(result.faults).toEqual([
      {
        seq: refused.seq,
        callId: 'call-2',
        tool: 'brittle',
        recorded: 'allow (rule 0)',
        replayed: 'deny (the default)',
        reason: 'the recorded verdict is allow (rule 0), the recorded policy gives deny (the default)',
      },
    ]);
  });

  it('catches an ask recorded as allowed that its approver refused', async () => {
    const events = await recordedRun(pathless);
    const asked = events.find(
      (event) => event.kind === 'policy.decided' && (event.payload as { tool: string }).tool === 'chatty',
    )!;
    const forged = await rewritten(events, asked.seq, (payload) => {
      payload.decision = 'allow';
    });
    const [fault] = (await verifyDecisions(each(forged))).faults;
    expect(fault).toMatchObject({
      seq: asked.seq,
      reason: expect.stringContaining(
        'recorded as allow, but its verdict ask (rule 1) with the answer approved=false gives deny',
      ),
    });
  });

  it('refuses to pass what it cannot judge: no policy recorded, or no subject where a path rule could apply', async () => {
    const unrecorded = await verifyDecisions(each(await recordedRun(pathless, { record: false })));
    expect(unrecorded.ok).toBe(false);
    expect(unrecorded.faults[0]?.reason).toContain('recorded no policy (policy.recorded) before it');
    // a ledger written before subjects were recorded: its decisions fail closed, as they always did
    const events = await recordedRun(document);
    let old = events;
    for (const event of events.filter((each) => each.kind === 'policy.decided'))
      old = await rewritten(old, event.seq, (payload) => delete payload.subject);
    const withPaths = await verifyDecisions(each(old));
    expect(withPaths.ok).toBe(false);
    expect(withPaths.faults.map((fault) => fault.tool)).toEqual(['oracle', 'chatty']);
    expect(withPaths.faults[0]?.reason).toContain('the record holds no subject');
    // the same run as recorded now: each decision holds its subject (null: unknown), and re-judges
    expect(events.filter((each) => each.kind === 'policy.decided').map((each) => each.payload)).toEqual(
      Array(3).fill(expect.objectContaining({ subject: null })),
    );
    expect(await verifyDecisions(each(events))).toEqual({ ok: true, agreed: 3, faults: [] });
  });

  it('re-judges calls by the subject each record holds, and catches a record whose subject was changed', async () => {
    const policy: PolicyDocument = {
      default: 'deny',
      rules: [
        { tools: ['reader'], paths: ['notes/**'], decision: 'allow' },
        { tools: ['reader'], paths: ['secrets/**'], decision: 'deny' },
      ],
    };
    const store = new MemoryStore({ clock: steppingClock() });
    const recorder = new LedgerRecorder(store, { runId: 'run-1' });
    await recorder.recordPolicy(policy);
    const gate = new ToolGate(new ToolRegistry().register(reader), {
      recorder,
      policy: new RulePolicy(policy),
      callIds: counter(),
    });
    const agent = gate.forAgent({ name: 'a', tools: ['reader'] });
    await agent.callTool('reader', { path: 'notes/a.md' });
    await agent.callTool('reader', { path: 'secrets/key' });
    const events = await readAll(store.read());
    const decided = events.filter((event) => event.kind === 'policy.decided');
    expect(decided.map((event) => (event.payload as { subject: unknown }).subject)).toEqual([
      { paths: ['notes/a.md'] },
      { paths: ['secrets/key'] },
    ]);
    expect(await verifyDecisions(each(events))).toEqual({ ok: true, agreed: 2, faults: [] });
    const moved = await rewritten(events, decided[1]!.seq, (payload) => {
      payload.subject = { paths: ['notes/key'] };
    });
    const result = await verifyDecisions(each(moved));
    expect(result.faults).toEqual([
      expect.objectContaining({
        seq: decided[1]!.seq,
        recorded: 'deny (rule 1)',
        replayed: 'allow (rule 0)',
      }),
    ]);
  });

  it('takes the document beside the ledger when the run recorded only its digest, and refuses another', async () => {
    const events = await recordedRun(pathless, { digestOnly: true });
    await expect(verifyDecisions(each(events))).rejects.toMatchObject({ code: 'LEDGER_UNAVAILABLE' });
    expect((await verifyDecisions(each(events), { documents: [pathless] })).ok).toBe(true);
    const other: PolicyDocument = { default: 'allow', rules: [] };
    await expect(verifyDecisions(each(events), { documents: [other] })).rejects.toMatchObject({
      code: 'LEDGER_UNAVAILABLE',
    });
  });
});
