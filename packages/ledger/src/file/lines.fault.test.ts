import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { steppingClock } from '../chain/clock.js';
import { MemoryStore } from '../memory-store.js';
import { temporaryFiles } from '../testing/files.js';
import { verifyLedgerFile } from '../verify/verify.js';
import { FileStore } from './file-store.js';
import { readLineBatches } from './lines.js';

const file = temporaryFiles();
const built = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'verify', 'verify.js');
const megabytes = 32;

/** A ledger of one record whose payload is a 32 MB string, then one small record. */
async function hugeLedger(): Promise<{ path: string; text: string }> {
  const store = new MemoryStore({ clock: steppingClock() });
  await store.append({
    runId: 'r',
    kind: 'tool.returned',
    actor: 'a',
    payload: { text: 'x'.repeat(megabytes << 20) },
  });
  await store.append({ runId: 'r', kind: 'run.ended', actor: 'system' });
  const path = file('huge.jsonl');
  const text = store.toJsonl();
  writeFileSync(path, text);
  return { path, text };
}

describe('one huge record', () => {
  it('is read in time linear in its length however small the chunks', async () => {
    const { path, text } = await hugeLedger();
    // 4 KiB chunks: the record spans 8,192 of them. Joining it by re-copying what was gathered at
    // each chunk (the quadratic way) copies ~8,192 × 16 MB = 128 GB, hours of work; gathering the
    // pieces and joining them once copies 32 MB. The bound below only guards against that hang.
    const lengths: number[] = [];
    for await (const batch of readLineBatches(path, { chunkSize: 4096 }))
      for (const line of batch) lengths.push(line.text.length);
    expect(lengths).toEqual(
      text
        .split('\n')
        .slice(0, -1)
        .map((line) => line.length),
    );
  }, 60_000);

  it('verifies, on one thread and on workers, and opens for appending', async () => {
    if (!existsSync(built)) throw new Error(`${built} is missing: build first`);
    const { path } = await hugeLedger();
    expect(await verifyLedgerFile(path)).toMatchObject({ ok: true, count: 2 });
    const parallel = (await import(built)) as { verifyLedgerFile: typeof verifyLedgerFile };
    expect(await parallel.verifyLedgerFile(path, { workers: 1 })).toMatchObject({ ok: true, count: 2 });
    const store = await FileStore.open(path, { durability: 'none' });
    expect((await store.append({ runId: 'r', kind: 'run.started', actor: 'system' })).seq).toBe(2);
    await store.close();
    expect(await verifyLedgerFile(path)).toMatchObject({ ok: true, count: 3 });
  }, 120_000);
});
