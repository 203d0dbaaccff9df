import { layeredPolicy, ToolGate } from '@toolgate/core';
import { describe, expect, it } from 'vitest';
import { steppingClock } from '../chain/clock.js';
import type { LedgerEvent } from '../chain/event.js';
import { MemoryStore } from '../memory-store.js';
import { LedgerRecorder } from '../recorder.js';
import { readAll } from '../store.js';
import { counter, toolRegistry } from '../testing/tools.js';
import { verifyDecisions } from './index.js';

const policy = layeredPolicy([
  { name: 'managed', policy: { rules: [{ tools: ['brittle'], decision: 'deny' }] } },
  { name: 'team', policy: { default: 'deny', rules: [{ tools: ['oracle'], decision: 'allow' }] } },
]);

async function* each(events: readonly LedgerEvent[]): AsyncIterable<LedgerEvent> {
  yield* events;
}

async function layeredRun(recordLayers: boolean) {
  const store = new MemoryStore({ clock: steppingClock() });
  const recorder = new LedgerRecorder(store, { runId: 'run-1' });
  await recorder.recordPolicy(policy.document, recordLayers ? { layers: policy.layers } : {});
  const gate = new ToolGate(toolRegistry(), { recorder, policy, callIds: counter() });
  const teller = gate.forAgent({ name: 'teller', tools: ['oracle', 'brittle'] });
  await teller.callTool('oracle', { seed: 'moss' }); // allow, rule 0 of layer team
  await teller.callTool('brittle', { why: 'x' }); // deny, rule 0 of layer managed
  const events = await readAll(store.read());
  await store.close();
  return events;
}

describe('verifyDecisions on a layered policy', () => {
  it('re-judges each verdict by its layer and its rule within the layer, with the layers recorded', async () => {
    const events = await layeredRun(true);
    expect(events[0]?.payload).toMatchObject({
      layers: {
        spans: [
          { name: 'managed', start: 0 },
          { name: 'team', start: 1 },
        ],
        defaultLayer: 'team',
      },
    });
    expect(await verifyDecisions(each(events))).toMatchObject({ ok: true, agreed: 2 });
  });

  it('fails a layered verdict recorded without the layers: its rule index cannot be placed', async () => {
    const result = await verifyDecisions(each(await layeredRun(false)));
    expect(result.ok).toBe(false);
    expect(result.faults.map((fault) => fault.reason)).toContain(
      'the recorded verdict is allow (rule 0 of layer team), the recorded policy gives allow (rule 1)',
    );
  });
});
