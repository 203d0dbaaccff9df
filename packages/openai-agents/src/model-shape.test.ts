import { Agent, run } from '@openai/agents';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents/testing';
import { type AgentHandle, ToolGate } from '@toolgate/core';
import { LedgerRecorder, MemoryStore, ReplaySession, replayRegistry, steppingClock } from '@toolgate/ledger';
import { describe, expect, it } from 'vitest';
import { agentsTools } from './agents-tools.js';
import { counter, ledgerEvents, pixel, recordedGate, toolOutputsSent } from './test-support/fixtures.js';

const manifest = { name: 'teller', tools: ['survey', 'vault'] };

/** One turn calling `survey` and the denied `vault`, then a final answer; every request the model got. */
async function runThrough(handle: AgentHandle) {
  const { tools, runOptions } = await agentsTools(handle);
  const model = new ScriptedModel([
    [
      functionCall('survey', {}, { callId: 'c1' }),
      functionCall('vault', { door: 'north' }, { callId: 'c2' }),
    ],
    [assistantMessage('counted')],
  ]);
  await run(new Agent({ name: 'teller', instructions: 'Count.', model, tools }), 'go', runOptions);
  return { model, requests: JSON.stringify(model.calls.map((call) => call.request.input)) };
}

describe('one shape for the model, through the Agents loop', () => {
  it('never sends a text rendering beside a JSON output: the output once, keys in canonical order, then the image', async () => {
    const { gate } = recordedGate();
    const { model } = await runThrough(gate.forAgent(manifest));
    const sent = toolOutputsSent(model, 1).get('c1');
    expect(sent).toEqual([
      { type: 'input_text', text: '{"moss":{"deep":[{"x":2,"y":1}],"tall":2},"zebra":1}' },
      expect.objectContaining({ type: 'input_image' }),
    ]);
    expect(JSON.stringify(sent)).toContain(pixel);
    const refused = toolOutputsSent(model, 1).get('c2') as { text: string };
    expect(JSON.parse(refused.text)).toMatchObject({ code: 'PERMISSION_DENIED' });
  });

  it('hands the model the same request bytes in a replay as in the live run', async () => {
    const { gate, store } = recordedGate();
    const live = await runThrough(gate.forAgent(manifest));
    const replay = new ReplaySession(await ledgerEvents(store), { mode: 'strict' });
    let now = 0;
    const replayGate = new ToolGate(
      replayRegistry(replay),
      replay.gateOptions({
        recorder: new LedgerRecorder(new MemoryStore({ clock: steppingClock() }), { runId: 'agents-1' }),
        callIds: counter(),
        clock: () => (now += 1),
      }),
    );
    const replayed = await runThrough(replayGate.forAgent(manifest));
    expect(replay.divergences).toEqual([]);
    expect(replayed.requests).toBe(live.requests);
  });
});
