import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { steppingClock } from '../chain/clock.js';
import { MemoryStore } from '../memory-store.js';
import { temporaryFiles } from '../testing/files.js';
import { verifyLedgerFile } from './verify.js';

// The worker runs compiled code, so this compares the built verifier on worker threads with the
// single-threaded verifier from source.
const built = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'verify', 'verify.js');
const file = temporaryFiles();
let lines: string[] = [];

beforeAll(async () => {
  if (!existsSync(built)) throw new Error(`${built} is missing: build first`);
  const store = new MemoryStore({ clock: steppingClock() });
  for (let n = 0; n < 8000; n++) {
    await store.append({
      runId: 'r',
      kind: 'oracle.spoke',
      actor: 'oracle',
      payload: { n, text: 'moss '.repeat(n % 60) },
    });
  }
  lines = store.toJsonl().split('\n');
  lines.pop();
});

async function both(text: string, options: { head?: string } = {}) {
  const path = file(`ledger-${Math.random()}.jsonl`);
  writeFileSync(path, text);
  const parallel = (await import(built)) as { verifyLedgerFile: typeof verifyLedgerFile };
  return {
    parallel: await parallel.verifyLedgerFile(path, { ...options, workers: 2 }),
    single: await verifyLedgerFile(path, { ...options, workers: 0 }),
  };
}

const joined = (list: string[]) => `${list.join('\n')}\n`;
/** The first line of the second 1 MiB chunk. */
function secondChunkStart(): number {
  let end = 0;
  for (const [index, line] of lines.entries()) {
    end += Buffer.byteLength(line) + 1;
    if (end > 2 ** 20) return index; // its newline lies past the first chunk
  }
  throw new Error('the ledger fits in one chunk');
}

describe('verify on worker threads', () => {
  it('agrees with the single-threaded verifier on a sound ledger of several chunks, and on a kept head', async () => {
    const { parallel, single } = await both(joined(lines), { head: JSON.parse(lines[5000]!).hash });
    expect(parallel).toEqual(single);
    expect(parallel).toMatchObject({ ok: true, count: 8000 });
  });

  it.each([
    ['a record deleted at a chunk boundary', (list: string[]) => list.splice(secondChunkStart(), 1)],
    [
      'a record edited deep in a later chunk',
      (list: string[]) => (list[6000] = list[6000]!.replace('"n":6000', '"n":6001')),
    ],
    [
      'two records swapped across a chunk boundary',
      (list: string[]) => {
        const at = secondChunkStart();
        [list[at - 1], list[at]] = [list[at]!, list[at - 1]!];
      },
    ],
    [
      'a newer schema version',
      (list: string[]) => (list[7000] = list[7000]!.replace('"schemaVersion":1', '"schemaVersion":2')),
    ],
  ])('names the same first bad record for %s', async (_what, change) => {
    const list = [...lines];
    change(list);
    const { parallel, single } = await both(joined(list));
    expect(single.ok).toBe(false);
    expect(parallel).toEqual(single);
  });

  it('agrees on a whole last record that lacks only its newline', async () => {
    const unterminated = await both(joined(lines).slice(0, -1));
    expect(unterminated.parallel).toEqual(unterminated.single);
    expect(unterminated.single).toMatchObject({ ok: true, count: 8000 });
  });

  it('agrees on a torn tail and on a kept head that was cut off', async () => {
    const torn = await both(joined(lines).slice(0, -30));
    expect(torn.parallel).toEqual(torn.single);
    expect(torn.single).toMatchObject({ ok: false, seq: 7999 });
    const cut = await both(joined(lines.slice(0, 4000)), { head: JSON.parse(lines[7000]!).hash });
    expect(cut.parallel).toEqual(cut.single);
    expect(cut.single).toMatchObject({ ok: false, seq: 4000 });
  });
});
