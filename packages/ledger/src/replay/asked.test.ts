import { RulePolicy, ToolGate, type ToolGateOptions } from '@toolgate/core';
import { describe, expect, it } from 'vitest';
import { steppingClock } from '../chain/clock.js';
import type { LedgerEvent } from '../chain/event.js';
import { MemoryStore } from '../memory-store.js';
import { LedgerRecorder } from '../recorder.js';
import { readAll } from '../store.js';
import { counter, toolRegistry } from '../testing/tools.js';
import { replayRegistry } from './registry.js';
import { ReplaySession } from './session.js';

const policy = new RulePolicy({
  default: 'allow',
  rules: [{ tools: ['oracle'], decision: 'ask', reason: 'omens need a witness' }],
});

/** A framework's approval flow: the ask is put (and recorded), answered later, then the call made. */
async function scenario(gate: ToolGate) {
  const teller = gate.forAgent({ name: 'teller', tools: ['oracle'] });
  const pending = { pending: { id: 'model-call-7', askedOf: 'the approval ui' } };
  const check = await teller.check('oracle', { seed: 'moss' }, pending);
  await teller.callTool(
    'oracle',
    { seed: 'moss' },
    { decision: { approved: false, by: 'ui', reason: 'no' } },
  );
  return check;
}

async function run(options: (recorder: LedgerRecorder) => ToolGateOptions, registry = toolRegistry()) {
  const store = new MemoryStore({ clock: steppingClock() });
  const recorder = new LedgerRecorder(store, { runId: 'r' });
  const check = await scenario(new ToolGate(registry, options(recorder)));
  return { check, events: await readAll(store.read()) };
}

async function replayOf(events: LedgerEvent[]) {
  const replay = new ReplaySession(events, { mode: 'strict' });
  const replayed = await run(
    (recorder) => replay.gateOptions({ recorder, callIds: counter() }),
    replayRegistry(replay),
  );
  replay.assertComplete();
  return replayed.events;
}

describe('policy.asked: an ask recorded when it is put', () => {
  it('records the pending ask before its answer, and a replay writes the same bytes', async () => {
    const recorded = await run((recorder) => ({ recorder, policy, callIds: counter() }));
    expect(recorded.check).toMatchObject({ status: 'ask', reason: 'omens need a witness' });
    expect(recorded.events.map((event) => `${event.kind} ${event.id}`)).toEqual([
      'policy.asked r:model-call-7:policy.asked',
      'tool.called r:call-1:tool.called',
      'policy.decided r:call-1:policy.decided',
      'tool.returned r:call-1:tool.returned',
    ]);
    expect(recorded.events[0]).toMatchObject({
      actor: 'teller',
      payload: {
        askId: 'model-call-7',
        askedOf: 'the approval ui',
        tool: 'oracle',
        parameters: { seed: 'moss' },
        verdict: { decision: 'ask', rule: 0, reason: 'omens need a witness' },
      },
    });
    expect(await replayOf(recorded.events)).toEqual(recorded.events);
  });

  it('replays a ledger written before policy.asked existed without writing one', async () => {
    const recorded = await run((recorder) => ({ recorder, policy, callIds: counter() }));
    // the same run as a ledger of before: no policy.asked, resealed so its chain verifies
    const store = new MemoryStore({ clock: steppingClock() });
    for (const event of recorded.events.filter((each) => each.kind !== 'policy.asked')) {
      const { id, runId, turn, kind, actor, payload } = event;
      await store.append({ id, runId, turn, kind, actor, payload });
    }
    const old = await readAll(store.read());
    expect(await replayOf(old)).toEqual(old);
  });

  it('records nothing for a check without pending, or one policy does not send to ask', async () => {
    const store = new MemoryStore({ clock: steppingClock() });
    const recorder = new LedgerRecorder(store, { runId: 'r' });
    const gate = new ToolGate(toolRegistry(), { recorder, policy, callIds: counter() });
    const teller = gate.forAgent({ name: 'teller', tools: ['oracle', 'brittle'] });
    await teller.check('oracle', { seed: 'moss' });
    await teller.check('brittle', { why: 'x' }, { pending: { id: 'c2', askedOf: 'ui' } });
    expect(await readAll(store.read())).toEqual([]);
  });
});
