import { readFileSync } from 'node:fs';
import { defineTool, ToolGate, ToolRegistry } from '@toolgate/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { steppingClock } from './chain/clock.js';
import { FileStore } from './file/file-store.js';
import { readLedgerFile } from './file/read-file.js';
import { LedgerRecorder } from './recorder.js';
import { replayRegistry } from './replay/registry.js';
import { ReplaySession } from './replay/session.js';
import { readAll } from './store.js';
import { temporaryFiles } from './testing/files.js';
import { counter, tickingClock } from './testing/tools.js';
import { verifyLedgerFile } from './verify/verify.js';

const file = temporaryFiles();

/** A tool that echoes its text into a lone surrogate of its own, and one that fails with it. */
function mangler() {
  return new ToolRegistry()
    .register(
      defineTool({
        name: 'mangle',
        description: 'Echoes the text with a lone low surrogate appended.',
        input: z.object({ text: z.string().describe('Any text.') }),
        run: ({ text }) => ({ echoed: text, tail: ['ok', 'broken \udc00 here'] }),
      }),
    )
    .register(
      defineTool({
        name: 'shatter',
        description: 'Fails, quoting the text.',
        input: z.object({ text: z.string().describe('Any text.') }),
        run: ({ text }) => {
          throw new Error(`cannot shatter ${text}`);
        },
      }),
    );
}

async function run(gate: ToolGate) {
  const agent = gate.forAgent({ name: 'teller', tools: ['mangle', 'shatter'] });
  return [
    await agent.callTool('mangle', { text: 'moss \ud800 stone' }),
    await agent.callTool('shatter', { text: '\ud800' }),
  ];
}

describe('lone UTF-16 surrogates in a recorded call', () => {
  it('never make a call throw: each call returns, all three records are written with U+FFFD and a note, and the ledger verifies', async () => {
    const path = file('surrogates.jsonl');
    const store = await FileStore.open(path, { clock: steppingClock() });
    const recorder = new LedgerRecorder(store, { runId: 'run-1' });
    const results = await run(
      new ToolGate(mangler(), { recorder, callIds: counter(), clock: tickingClock() }),
    );
    await store.close();

    expect(results[0]).toMatchObject({
      isError: false,
      output: { echoed: 'moss \ud800 stone', tail: ['ok', 'broken \udc00 here'] },
    });
    expect(results[1]).toMatchObject({ isError: true });
    expect(await verifyLedgerFile(path)).toEqual({ ok: true, count: 6, last: expect.any(Object) });
    const events = await readAll(readLedgerFile(path));
    expect(events.map((event) => event.kind)).toEqual([
      'tool.called',
      'policy.decided',
      'tool.returned',
      'tool.called',
      'policy.decided',
      'tool.returned',
    ]);
    expect(events[0]!.payload).toEqual({
      callId: 'call-1',
      tool: 'mangle',
      parameters: { text: 'moss \ufffd stone' },
      surrogatesReplaced: [{ path: ['parameters', 'text'], at: [5], units: ['d800'] }],
    });
    expect(events[2]!.payload).toEqual({
      callId: 'call-1',
      tool: 'mangle',
      isError: false,
      output: { echoed: 'moss \ufffd stone', tail: ['ok', 'broken \ufffd here'] },
      durationMs: 1,
      surrogatesReplaced: [
        { path: ['output', 'echoed'], at: [5], units: ['d800'] },
        { path: ['output', 'tail', 1], at: [7], units: ['dc00'] },
      ],
    });
    expect(events[5]!.payload).toMatchObject({
      isError: true,
      error: { message: expect.stringContaining('cannot shatter \ufffd') },
      surrogatesReplaced: [{ path: ['error', 'message'] }],
    });
    // The stored bytes are well-formed UTF-8: no lone surrogate was written as one.
    expect(readFileSync(path, 'utf8')).not.toMatch(/\\ud800|\\udc00/i);
  });

  it('replays such a ledger byte-identically, handing the agent what the recorded run saw', async () => {
    const original = file('original.jsonl');
    const store = await FileStore.open(original, { clock: steppingClock() });
    const recorder = new LedgerRecorder(store, { runId: 'run-1' });
    const recordedResults = await run(new ToolGate(mangler(), { recorder, callIds: counter() }));
    await store.close();

    const replay = new ReplaySession(await readAll(readLedgerFile(original)), { mode: 'strict' });
    const copy = file('replayed.jsonl');
    const replayStore = await FileStore.open(copy, { clock: steppingClock() });
    const replayRecorder = new LedgerRecorder(replayStore, { runId: 'run-1' });
    const replayGate = new ToolGate(
      replayRegistry(replay),
      replay.gateOptions({ recorder: replayRecorder, callIds: counter() }),
    );
    const replayedResults = await run(replayGate);
    await replayStore.close();

    expect(replayedResults).toEqual(recordedResults);
    expect(replay.divergences).toEqual([]);
    expect(readFileSync(copy, 'utf8')).toBe(readFileSync(original, 'utf8'));
  });
});
