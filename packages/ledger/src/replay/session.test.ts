import { ToolGate, ToolgateError } from '@toolgate/core';
import { describe, expect, it } from 'vitest';
import { steppingClock } from '../chain/clock.js';
import type { LedgerEvent } from '../chain/event.js';
import { MemoryStore } from '../memory-store.js';
import { LedgerRecorder } from '../recorder.js';
import { readAll } from '../store.js';
import { counter, oracle, toolRegistry } from '../testing/tools.js';
import { replayRegistry } from './registry.js';
import type { ReplayOptions } from './replay-options.js';
import { ReplaySession } from './session.js';

const manifest = { name: 'teller', tools: ['oracle', 'brittle'] };

async function record(calls: [string, object][]): Promise<LedgerEvent[]> {
  const store = new MemoryStore({ clock: steppingClock() });
  const recorder = new LedgerRecorder(store, { runId: 'r' });
  const teller = new ToolGate(toolRegistry(), { recorder, callIds: counter() }).forAgent(manifest);
  for (const [tool, parameters] of calls) await teller.callTool(tool, parameters);
  return readAll(store.read());
}

function replayer(events: LedgerEvent[], options: ReplayOptions = {}) {
  const replay = new ReplaySession(events, options);
  const store = new MemoryStore({ clock: steppingClock() });
  const recorder = new LedgerRecorder(store, { runId: 'r' });
  const gate = new ToolGate(replayRegistry(replay), replay.gateOptions({ recorder, callIds: counter() }));
  return { replay, store, teller: gate.forAgent(manifest), gate };
}

describe('ReplaySession', () => {
  it('refuses a mode it does not know, naming it and the ones it knows, instead of acting lenient', async () => {
    const events = await record([['oracle', { seed: 'moss' }]]);
    const mode = 'Strict' as ReplayOptions['mode'];
    expect(() => new ReplaySession(events, { mode })).toThrow(
      expect.objectContaining({
        code: 'INVALID_DEFINITION',
        message: 'replay mode "Strict" is not known; use "strict" (the default) or "lenient"',
      }),
    );
  });

  it('serves recorded outputs and recorded errors without running a tool', async () => {
    const { teller } = replayer(
      await record([
        ['oracle', { seed: 'moss' }],
        ['brittle', { why: 'glass' }],
      ]),
    );
    expect(await teller.callTool('oracle', { seed: 'moss' })).toMatchObject({
      isError: false,
      output: { omen: 'the stone remembers moss' },
    });
    expect(await teller.callTool('brittle', { why: 'glass' })).toMatchObject({
      isError: true,
      error: { code: 'NOT_FOUND', message: 'nothing called glass' },
    });
  });

  it('hands back the recorded durationMs, and replays a recording made before durations without diverging', async () => {
    const events = await record([['oracle', { seed: 'moss' }]]);
    const recordedMs = (
      events.find((event) => event.kind === 'tool.returned')!.payload as { durationMs: number }
    ).durationMs;
    expect(recordedMs).toEqual(expect.any(Number));
    const { teller, replay } = replayer(events);
    expect(await teller.callTool('oracle', { seed: 'moss' })).toMatchObject({ durationMs: recordedMs });
    expect(replay.divergences).toEqual([]);

    const before = events.map((event) => {
      if (event.kind !== 'tool.returned') return event;
      const { durationMs: _dropped, ...payload } = event.payload as Record<string, unknown>;
      return { ...event, payload } as LedgerEvent;
    });
    const old = replayer(before);
    expect(await old.teller.callTool('oracle', { seed: 'moss' })).toMatchObject({
      isError: false,
      durationMs: expect.any(Number),
    });
    expect(old.replay.divergences).toEqual([]);
  });

  it('strict: a call with other parameters fails loudly, naming the seq and the difference', async () => {
    const { teller, store } = replayer(await record([['oracle', { seed: 'moss' }]]));
    const error = await teller.callTool('oracle', { seed: 'stone' }).catch((e: unknown) => e);
    expect(ToolgateError.is(error) && error.code).toBe('REPLAY_DIVERGED');
    expect((error as Error).message).toBe(
      'replay diverged from the recording at seq 0: parameters {"seed":"stone"} instead of {"seed":"moss"}',
    );
    expect(store.head().seq).toBe(0); // nothing of the diverged call was written
  });

  it('strict: another agent, another tool, or a call past the end of the recording diverges', async () => {
    const events = await record([['oracle', { seed: 'moss' }]]);
    const { gate } = replayer(events);
    await expect(
      gate.forAgent({ name: 'critic', tools: ['oracle'] }).callTool('oracle', { seed: 'moss' }),
    ).rejects.toThrow(/at seq 0: agent "critic" instead of "teller"/);
    const { teller } = replayer(events);
    await teller.callTool('oracle', { seed: 'moss' });
    await expect(teller.callTool('oracle', { seed: 'moss' })).rejects.toThrow(
      /at seq 3: agent "teller" called "oracle", but the recording has no more calls/,
    );
  });

  it('strict: the same calls in another order diverge; lenient replays them by occurrence', async () => {
    const events = await record([
      ['oracle', { seed: 'a' }],
      ['oracle', { seed: 'bb' }],
      ['oracle', { seed: 'a' }],
    ]);
    await expect(replayer(events).teller.callTool('oracle', { seed: 'bb' })).rejects.toMatchObject({
      code: 'REPLAY_DIVERGED',
    });
    const { teller, replay } = replayer(events, { mode: 'lenient' });
    expect((await teller.callTool('oracle', { seed: 'bb' })).isError).toBe(false);
    expect((await teller.callTool('oracle', { seed: 'a' })).isError).toBe(false);
    expect(() => replay.assertComplete()).toThrow(/made 2 of the 3 recorded calls; 1 were never made/);
    expect((await teller.callTool('oracle', { seed: 'a' })).isError).toBe(false);
    expect(() => replay.assertComplete()).not.toThrow();
  });

  it('lenient: a call the recording has no result for comes back as an error result the model can read', async () => {
    const { teller, replay } = replayer(await record([['oracle', { seed: 'a' }]]), { mode: 'lenient' });
    const result = await teller.callTool('oracle', { seed: 'zzz' });
    expect(result).toMatchObject({ isError: true, error: { code: 'REPLAY_DIVERGED' } });
    expect(result.isError && result.error.message).toMatch(
      /\{"seed":"zzz"\} \(occurrence 1\), which the recording has no result/,
    );
    expect(replay.divergences).toHaveLength(1);
  });

  it('strict: assertComplete names the first recorded call the replay never made', async () => {
    const { teller, replay } = replayer(
      await record([
        ['oracle', { seed: 'a' }],
        ['oracle', { seed: 'b' }],
      ]),
    );
    await teller.callTool('oracle', { seed: 'a' });
    expect(() => replay.assertComplete()).toThrow(
      /made 1 of the 2 recorded calls; 1 were never made, the first at seq 3/,
    );
  });

  it('describes tools for prompts from the descriptions given, with every tool switched off', async () => {
    const { name, description, inputSchema } = oracle;
    const { teller } = replayer(await record([['oracle', { seed: 'a' }]]), {
      tools: [{ name, description, inputSchema }],
    });
    expect(await teller.availableToolsBlock()).toBe(
      'AVAILABLE TOOLS\n- oracle: Draw a cryptic omen from a seed.',
    );
    expect((await teller.toolSchemas())[0]?.inputSchema).toEqual(oracle.inputSchema);
  });
});
