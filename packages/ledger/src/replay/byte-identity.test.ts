import { readFileSync } from 'node:fs';
import { ToolGate } from '@toolgate/core';
import { describe, expect, it } from 'vitest';
import { steppingClock } from '../chain/clock.js';
import { FileStore } from '../file/file-store.js';
import { readLedgerFile } from '../file/read-file.js';
import { LedgerRecorder } from '../recorder.js';
import { readAll } from '../store.js';
import { temporaryFiles } from '../testing/files.js';
import { runScenario, scenarioApprover, scenarioPolicy, scenarioRegistry } from '../testing/scenario.js';
import { counter } from '../testing/tools.js';
import { verifyLedgerFile } from '../verify/verify.js';
import { replayRegistry } from './registry.js';
import { ReplaySession } from './session.js';

const file = temporaryFiles();

describe('replay with every tool switched off', () => {
  it('writes a ledger byte-identical to the recorded one, and hands the agents the same results', async () => {
    const original = file('original.jsonl');
    const store = await FileStore.open(original, { clock: steppingClock() });
    const recorder = new LedgerRecorder(store, { runId: 'grove-1' });
    const gate = new ToolGate(scenarioRegistry(), {
      recorder,
      policy: scenarioPolicy,
      approver: scenarioApprover,
      callIds: counter(),
      limits: { outputChars: 100 },
    });
    const recordedResults = await runScenario(gate, recorder);
    await store.close();
    const recorded = readFileSync(original, 'utf8');
    // every path of the gate is in the recording
    for (const code of [
      'INVALID_PARAMETERS',
      'NOT_FOUND',
      'PERMISSION_DENIED',
      'UNKNOWN_TOOL',
      'CAPABILITY_VIOLATION',
    ])
      expect(recorded).toContain(`"code":"${code}"`);
    expect(recorded).toContain('"truncated":true');
    // durations by the real clock: the replay must reproduce them, not measure its own
    expect(recorded).toMatch(/"durationMs":\d/);
    expect(recorded).toContain('approved: glass is cheap');

    const events = await readAll(readLedgerFile(original));
    const replay = new ReplaySession(events, { mode: 'strict' });
    const copy = file('replayed.jsonl');
    const replayStore = await FileStore.open(copy, { clock: steppingClock() });
    const replayRecorder = new LedgerRecorder(replayStore, { runId: 'grove-1' });
    const registry = replayRegistry(replay);
    expect(registry.names()).toEqual([]);
    const replayGate = new ToolGate(
      registry,
      replay.gateOptions({ recorder: replayRecorder, callIds: counter() }),
    );
    const replayedResults = await runScenario(replayGate, replayRecorder);
    await replayStore.close();

    expect(replayedResults).toEqual(recordedResults);
    expect(readFileSync(copy, 'utf8').split('\n')).toEqual(recorded.split('\n'));
    expect(readFileSync(copy, 'utf8')).toBe(recorded);
    expect(replay.divergences).toEqual([]);
    expect(() => replay.assertComplete()).not.toThrow();
    expect(await verifyLedgerFile(copy)).toMatchObject({ ok: true, count: events.length });
  });
});
