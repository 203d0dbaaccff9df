import { type CallOptions, RulePolicy, ToolGate, type ToolGateOptions } from '@toolgate/core';
import { describe, expect, it } from 'vitest';
import { steppingClock } from '../chain/clock.js';
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

/** A parent derives a subagent, which calls with decisions made outside the gate. */
async function scenario(gate: ToolGate) {
  const teller = gate.forAgent({ name: 'teller', tools: ['oracle', 'brittle'] });
  teller.narrow(['brittle'], 'unused'); // never calls: writes nothing
  const apprentice = teller.narrow(['oracle']);
  const approved: CallOptions = { decision: { approved: true, by: 'ui', reason: 'fine' } };
  const rejected: CallOptions = { decision: { approved: false, by: 'ui' } };
  return [
    await apprentice.callTool('oracle', { seed: 'moss' }, approved),
    await apprentice.callTool('oracle', { seed: 'ash' }, rejected),
    await apprentice.callTool('brittle', { why: 'x' }),
  ];
}

async function run(options: (recorder: LedgerRecorder) => ToolGateOptions, registry = toolRegistry()) {
  const store = new MemoryStore({ clock: steppingClock() });
  const recorder = new LedgerRecorder(store, { runId: 'r' });
  const results = await scenario(new ToolGate(registry, options(recorder)));
  return { results, events: await readAll(store.read()) };
}

describe('agent.derived and external decisions in a ledger', () => {
  it('answers a pre-flight check in a replay with the decision recorded for the next call', async () => {
    const recorded = await run((recorder) => ({ recorder, policy, callIds: counter() }));
    const replay = new ReplaySession(recorded.events, { mode: 'strict' });
    const store = new MemoryStore({ clock: steppingClock() });
    const recorder = new LedgerRecorder(store, { runId: 'r' });
    const gate = new ToolGate(replayRegistry(replay), replay.gateOptions({ recorder, callIds: counter() }));
    const apprentice = gate.forAgent({ name: 'teller', tools: ['oracle', 'brittle'] }).narrow(['oracle']);
    // the policy (ask) is gone in a replay: only the recording can say the first call was an ask
    expect(await apprentice.check('oracle', { seed: 'moss' })).toMatchObject({
      status: 'ask',
      reason: 'omens need a witness',
    });
    expect(await readAll(store.read())).toEqual([]);
  });

  it('records the lineage before the first call of the derived agent, and replays it byte-identically', async () => {
    const recorded = await run((recorder) => ({ recorder, policy, callIds: counter() }));
    expect(recorded.events.map((event) => `${event.kind} ${event.actor}`)).toEqual([
      'agent.derived teller',
      'tool.called teller/sub',
      'policy.decided teller/sub',
      'tool.returned teller/sub',
      'tool.called teller/sub',
      'policy.decided teller/sub',
      'tool.returned teller/sub',
      'tool.called teller/sub',
      'tool.returned teller/sub',
    ]);
    expect(recorded.events[0]!.payload).toEqual({ agent: 'teller/sub', parent: 'teller', tools: ['oracle'] });
    expect(recorded.events[2]!.payload).toMatchObject({
      decision: 'allow',
      reason: 'omens need a witness; approved by ui: fine',
    });
    expect(recorded.events[5]!.payload).toMatchObject({
      decision: 'deny',
      reason: 'omens need a witness; not approved by ui',
    });

    const replay = new ReplaySession(recorded.events, { mode: 'strict' });
    const replayed = await run(
      (recorder) => replay.gateOptions({ recorder, callIds: counter() }),
      replayRegistry(replay),
    );
    expect(replay.divergences).toEqual([]);
    expect(() => replay.assertComplete()).not.toThrow();
    expect(replayed.results).toEqual(recorded.results);
    expect(replayed.events.map((event) => JSON.stringify(event))).toEqual(
      recorded.events.map((event) => JSON.stringify(event)),
    );
  });
});
