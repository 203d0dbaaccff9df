import { layeredPolicy, type PolicyDocument, RulePolicy, ToolGate, ToolRegistry } from '@toolgate/core';
import { describe, expect, it } from 'vitest';
import { steppingClock } from '../chain/clock.js';
import type { LedgerEvent } from '../chain/event.js';
import { MemoryStore } from '../memory-store.js';
import { LedgerRecorder } from '../recorder.js';
import { readAll } from '../store.js';
import { reader } from '../test-support/reader.js';
import { chatty, counter, oracle } from '../testing/tools.js';
import { backtestDecisions } from './backtest.js';

const lived: PolicyDocument = {
  default: 'deny',
  rules: [
    { tools: ['reader'], paths: ['notes/**', 'src/**'], decision: 'allow' },
    { tools: ['oracle'], decision: 'allow' },
    { tools: ['chatty'], decision: 'ask' },
  ],
};

/** A real gate deciding by `lived`, recorded to a memory ledger; returns the events. */
async function recorded(): Promise<LedgerEvent[]> {
  const store = new MemoryStore({ clock: steppingClock() });
  const recorder = new LedgerRecorder(store, { runId: 'run-1' });
  const registry = new ToolRegistry().register(reader).register(oracle).register(chatty);
  const gate = new ToolGate(registry, {
    recorder,
    policy: new RulePolicy(lived),
    approver: ({ parameters }) => (parameters as { words: number }).words < 5,
    callIds: counter(),
  });
  const agent = gate.forAgent({ name: 'a', tools: ['reader', 'oracle', 'chatty'] });
  await agent.callTool('reader', { path: 'notes/a.md' }); // allow
  await agent.callTool('reader', { path: 'notes/private/diary.md' }); // allow
  await agent.callTool('reader', { path: 'secrets/key' }); // deny (default)
  await agent.callTool('oracle', { seed: 'moss' }); // allow
  await agent.callTool('chatty', { words: 2 }); // ask, approved
  await agent.callTool('chatty', { words: 9 }); // ask, refused
  await agent.callTool('reader', { path: 'src/x.ts' }); // allow
  const events = await readAll(store.read());
  await store.close();
  return events;
}

async function* each(events: LedgerEvent[]) {
  yield* events;
}

function seqOf(events: LedgerEvent[], tool: string, parameters: object): number {
  const called = events.find(
    (event) =>
      event.kind === 'tool.called' &&
      JSON.stringify((event.payload as { parameters: unknown }).parameters) === JSON.stringify(parameters),
  )!;
  const callId = (called.payload as { callId: string }).callId;
  return events.find(
    (event) =>
      event.kind === 'policy.decided' &&
      (event.payload as { callId: string; tool: string }).callId === callId &&
      (event.payload as { tool: string }).tool === tool,
  )!.seq;
}

describe('backtestDecisions', () => {
  it('names exactly the recorded calls a stricter policy would change, grouped by the rule that changes them', async () => {
    const events = await recorded();
    const stricter: PolicyDocument = {
      default: 'deny',
      rules: [
        { tools: ['reader'], paths: ['notes/**', 'src/**'], decision: 'allow' },
        { tools: ['reader'], paths: ['notes/private/**'], decision: 'deny' },
        { tools: ['oracle'], decision: 'ask' },
        { tools: ['chatty'], decision: 'ask' },
        { tools: ['reader'], paths: ['secrets/key'], decision: 'allow' },
      ],
    };
    const result = await backtestDecisions(each(events), { policy: new RulePolicy(stricter) });
    const diary = seqOf(events, 'reader', { path: 'notes/private/diary.md' });
    const omen = seqOf(events, 'oracle', { seed: 'moss' });
    const key = seqOf(events, 'reader', { path: 'secrets/key' });
    expect(result).toMatchObject({ judged: 7, unchanged: 4, unjudged: [] });
    expect(result.changes.map((change) => [change.seq, change.kind, change.was, change.now.rule])).toEqual([
      [diary, 'allowed → denied', { verdict: 'allow', outcome: 'allow' }, 1],
      [key, 'denied → allowed', { verdict: 'deny', outcome: 'deny' }, 4],
      [omen, 'new ask', { verdict: 'allow', outcome: 'allow' }, 2],
    ]);
    expect(result.groups).toEqual([
      { kind: 'allowed → denied', rule: 1, seqs: [diary] },
      { kind: 'denied → allowed', rule: 4, seqs: [key] },
      { kind: 'new ask', rule: 2, seqs: [omen] },
    ]);
  });

  it('finds nothing to change under the policy the run was recorded with', async () => {
    const result = await backtestDecisions(each(await recorded()), { policy: new RulePolicy(lived) });
    expect(result).toEqual({ judged: 7, unchanged: 7, changes: [], groups: [], unjudged: [] });
  });

  it('names the layer whose rule would change a call', async () => {
    const policy = layeredPolicy([
      { name: 'managed', policy: { rules: [{ tools: ['reader'], paths: ['src/**'], decision: 'deny' }] } },
      { name: 'project', policy: lived },
    ]);
    const result = await backtestDecisions(each(await recorded()), { policy });
    expect(result.groups).toEqual([
      { kind: 'allowed → denied', layer: 'managed', rule: 0, seqs: [expect.any(Number)] },
    ]);
  });

  it('does not guess what a record without a subject touched: it lists it as unjudged', async () => {
    const events = (await recorded()).map((event) => {
      if (event.kind !== 'policy.decided') return event;
      const { subject: _subject, ...payload } = event.payload as Record<string, unknown>;
      return { ...event, payload } as LedgerEvent;
    });
    const result = await backtestDecisions(each(events), { policy: new RulePolicy(lived) });
    // reader's calls depend on paths rules; oracle's and chatty's do not, so they are judged
    expect(result.judged).toBe(3);
    expect(result.unjudged.map((each) => each.tool)).toEqual(['reader', 'reader', 'reader', 'reader']);
    expect(result.unjudged[0]?.reason).toContain('the record holds no subject');
  });
});
