import { RulePolicy, ToolGate } from '@toolgate/core';
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

describe('a pre-flight check on a replay', () => {
  it('gets the verdict of the recorded call it precedes, so a replayed ask is asked again', async () => {
    const store = new MemoryStore({ clock: steppingClock() });
    const recorder = new LedgerRecorder(store, { runId: 'r' });
    const teller = new ToolGate(toolRegistry(), { recorder, policy, callIds: counter() }).forAgent({
      name: 'teller',
      tools: ['oracle'],
    });
    expect(await teller.check('oracle', { seed: 'moss' })).toMatchObject({ status: 'ask' });
    await teller.callTool('oracle', { seed: 'moss' }, { decision: { approved: true, by: 'ui' } });
    await teller.callTool('oracle', { seed: 'moss' }, { decision: { approved: false, by: 'ui' } });

    for (const mode of ['strict', 'lenient'] as const) {
      const replay = new ReplaySession(await readAll(store.read()), { mode });
      const replayed = new ToolGate(
        replayRegistry(replay),
        replay.gateOptions({
          recorder: new LedgerRecorder(new MemoryStore(), { runId: 'r' }),
          callIds: counter(),
        }),
      ).forAgent({ name: 'teller', tools: ['oracle'] });
      for (const approved of [true, false]) {
        expect(await replayed.check('oracle', { seed: 'moss' })).toMatchObject({
          status: 'ask',
          reason: 'omens need a witness',
        });
        const result = await replayed.callTool(
          'oracle',
          { seed: 'moss' },
          { decision: { approved, by: 'ui' } },
        );
        expect(result.isError).toBe(!approved);
      }
      expect(replay.divergences).toEqual([]);
    }
  });
});
