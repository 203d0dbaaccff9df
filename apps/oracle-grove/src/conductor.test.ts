import { join } from 'node:path';
import { oracleTool } from '@toolgate/builtins';
import { ToolRegistry } from '@toolgate/core';
import { FileStore, steppingClock } from '@toolgate/ledger';
import { describe, expect, it } from 'vitest';
import { scratchDir } from '../test/fixtures.js';
import { runScenario } from './conductor.js';
import { loadConfig } from './config.js';
import { OfflineModel } from './model.js';

describe('runScenario checkpoints', () => {
  it.each([
    ['turn', 4],
    ['end', 1],
  ] as const)('flushes the ledger at every %s (%i fsyncs for 3 turns)', async (checkpoints, fsyncs) => {
    const store = await FileStore.open(join(await scratchDir(), 'run.jsonl'), {
      durability: 'none',
      clock: steppingClock(),
    });
    await runScenario(await loadConfig(), {
      seed: 'moss',
      turns: 3,
      trespass: false,
      registry: new ToolRegistry().register(oracleTool()),
      store,
      model: new OfflineModel(),
      checkpoints,
    });
    expect(store.fsyncs).toBe(fsyncs);
    await store.close();
  });
});
