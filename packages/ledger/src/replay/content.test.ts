import { readFileSync } from 'node:fs';
import { defineTool, ToolGate, ToolRegistry, type ToolResult, toolResult } from '@toolgate/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { steppingClock } from '../chain/clock.js';
import { FileStore } from '../file/file-store.js';
import { readLedgerFile } from '../file/read-file.js';
import { LedgerRecorder } from '../recorder.js';
import { readAll } from '../store.js';
import { temporaryFiles } from '../testing/files.js';
import { counter } from '../testing/tools.js';
import { verifyLedgerFile } from '../verify/verify.js';
import { replayRegistry } from './registry.js';
import { ReplaySession } from './session.js';

const file = temporaryFiles();
// Every byte value, so a re-encoding, a cut or a lost byte shows.
const imageBytes = Buffer.from(Array.from({ length: 4096 }, (_, index) => (index * 13 + 5) % 256));

const camera = defineTool({
  name: 'camera',
  description: 'Photographs the grove: a caption, the picture, a note; or, over the cap, less.',
  input: z.object({ big: z.boolean().describe('Take a picture over the byte cap.') }),
  run: ({ big }) =>
    toolResult({
      output: { frame: 1 },
      content: [
        {
          type: 'text',
          text: 'the grove at dusk \ud800 (a lone surrogate, recorded as U+FFFD and restored)',
        },
        {
          type: 'image',
          data: (big ? Buffer.alloc(9000, 1) : imageBytes).toString('base64'),
          mimeType: 'image/png',
        },
        { type: 'resource', resource: { uri: 'file:///grove/raw.bin', blob: imageBytes.toString('base64') } },
      ],
    }),
});

async function run(gate: ToolGate): Promise<ToolResult[]> {
  const agent = gate.forAgent({ name: 'photographer', tools: ['camera'] });
  return [await agent.callTool('camera', { big: false }), await agent.callTool('camera', { big: true })];
}

describe('replay of a run with content parts', () => {
  it('hands back the same image bytes with every tool switched off, and writes the same ledger bytes', async () => {
    const original = file('original.jsonl');
    const store = await FileStore.open(original, { clock: steppingClock() });
    const recorder = new LedgerRecorder(store, { runId: 'grove-1' });
    const live = new ToolGate(new ToolRegistry().register(camera), {
      recorder,
      callIds: counter(),
      limits: { contentBytes: 8192 },
    });
    const recordedResults = await run(live);
    await store.close();
    const recorded = readFileSync(original, 'utf8');
    expect(recorded).toContain(imageBytes.toString('base64'));
    expect(recorded).toContain('"surrogatesReplaced"');
    expect(recordedResults[1]).toMatchObject({
      content: [
        {},
        { type: 'text', text: expect.stringMatching(/^\[image \("image\/png", 9000 bytes\) omitted/) },
        {},
      ],
    });

    const replay = new ReplaySession(await readAll(readLedgerFile(original)), { mode: 'strict' });
    const copy = file('replayed.jsonl');
    const replayStore = await FileStore.open(copy, { clock: steppingClock() });
    const replayRecorder = new LedgerRecorder(replayStore, { runId: 'grove-1' });
    const replayGate = new ToolGate(
      replayRegistry(replay),
      replay.gateOptions({ recorder: replayRecorder, callIds: counter() }),
    );
    const replayedResults = await run(replayGate);
    await replayStore.close();

    expect(replayedResults).toEqual(recordedResults);
    const picture = replayedResults[0]!.isError ? undefined : replayedResults[0]!.content?.[1];
    expect(picture?.type === 'image' && Buffer.from(picture.data, 'base64').equals(imageBytes)).toBe(true);
    const caption = replayedResults[0]!.isError ? undefined : replayedResults[0]!.content?.[0];
    expect(caption?.type === 'text' && caption.text.includes('\ud800')).toBe(true);
    expect(readFileSync(copy, 'utf8')).toBe(recorded);
    expect(replay.divergences).toEqual([]);
    expect(() => replay.assertComplete()).not.toThrow();
    expect(await verifyLedgerFile(copy)).toMatchObject({ ok: true });
  });
});
