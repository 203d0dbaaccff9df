import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ToolgateError } from '@toolgate/core';
import { describe, expect, it } from 'vitest';
import { steppingClock } from './chain/clock.js';
import { maxRecordDepth } from './chain/nesting.js';
import { FileStore } from './file/file-store.js';
import { readLedgerFile } from './file/read-file.js';
import { MemoryStore } from './memory-store.js';
import { readAll } from './store.js';
import { deepLedger, ledgerWithReplacementCharacter, withFfForReplacement } from './testing/crafted.js';
import { temporaryFiles } from './testing/files.js';
import { verifyLedgerFile, verifyLedgerText } from './verify/verify.js';

// The worker threads run compiled code (the command's exit codes are tested in @toolgate/ledger-cli).
const distribution = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const file = temporaryFiles();

describe('the ledger is verified as bytes', () => {
  it('reports a record whose EF BF BD became FF as bad, though its text decodes the same', async () => {
    const sound = await ledgerWithReplacementCharacter(5, 3);
    const edited = withFfForReplacement(sound);
    // Decoded with replacement the two files are one text: a check on the text could not tell them apart.
    expect(edited.toString('utf8')).toBe(sound.toString('utf8'));
    const path = file('ff.jsonl');
    writeFileSync(path, edited);
    for (const workers of [0, 2]) {
      const verify = workers === 0 ? verifyLedgerFile : await builtVerify();
      expect(await verify(path, { workers }), `${workers} workers`).toMatchObject({
        ok: false,
        count: 3,
        seq: 3,
        reason: expect.stringMatching(/not valid UTF-8/),
        code: 'LEDGER_CORRUPT',
      });
    }
    await expect(readAll(readLedgerFile(path))).rejects.toThrow(/seq 3 .*not valid UTF-8/);
  });

  it('verifies the untouched ledger with the character in it, on this thread and on workers', async () => {
    const path = file('sound.jsonl');
    writeFileSync(path, await ledgerWithReplacementCharacter(5, 3));
    expect(await verifyLedgerFile(path)).toMatchObject({ ok: true, count: 5 });
    expect(await (await builtVerify())(path, { workers: 2 })).toMatchObject({ ok: true, count: 5 });
  });

  it('finds the bad byte in a chunk a worker checked, far from the chunk boundaries', async () => {
    const bytes = withFfForReplacement(await ledgerWithReplacementCharacter(40_000, 25_000));
    const path = file('large-ff.jsonl');
    writeFileSync(path, bytes);
    expect(await (await builtVerify())(path, { workers: 2 })).toMatchObject({ ok: false, seq: 25_000 });
  });

  it('reads a record that is not UTF-8 from a FileStore as LEDGER_CORRUPT, never as its decoded text', async () => {
    const path = file('read-ff.jsonl');
    writeFileSync(path, withFfForReplacement(await ledgerWithReplacementCharacter(40_000, 25_000)));
    const store = await FileStore.open(path); // the bad record is far before the tail open reads
    try {
      await expect(readAll(store.read({ fromSeq: 24_990 }))).rejects.toMatchObject({
        code: 'LEDGER_CORRUPT',
        message: expect.stringMatching(/not a ledger record \(not valid UTF-8\)/),
      });
    } finally {
      await store.close();
    }
  });

  it('refuses to open for appending a ledger whose last record is not UTF-8', async () => {
    const path = file('tail-ff.jsonl');
    writeFileSync(path, withFfForReplacement(await ledgerWithReplacementCharacter(4, 3)));
    const error = await FileStore.open(path).catch((caught: unknown) => caught);
    expect(ToolgateError.is(error) && error.code).toBe('LEDGER_CORRUPT');
    expect((error as Error).message).toMatch(/seq 3 .*not valid UTF-8/);
  });

  it('cuts off a torn last line that is not UTF-8, keeping the records before it', async () => {
    const path = file('torn-ff.jsonl');
    const sound = await ledgerWithReplacementCharacter(4, 3);
    const cut = withFfForReplacement(sound).subarray(0, -2); // no newline, and short of its end
    writeFileSync(path, cut);
    const store = await FileStore.open(path);
    expect(store.recovered).toMatchObject({ seq: 3 });
    expect(store.head().seq).toBe(3);
    await store.close();
    const kept = sound.toString('utf8').split('\n').slice(0, 3).join('\n');
    expect(readFileSync(path, 'utf8')).toBe(`${kept}\n`);
  });
});

describe('deep nesting is a bad record, never a crash of the reader', () => {
  it('reports a record nested 5,000 deep as bad: verify exits 1, not 3', async () => {
    const path = file('deep.jsonl');
    writeFileSync(path, await deepLedger(5000));
    expect(await verifyLedgerFile(path)).toMatchObject({
      ok: false,
      seq: 0,
      reason: expect.stringMatching(/nests deeper than 2048 levels/),
      code: 'LEDGER_CORRUPT',
    });
    await expect(readAll(readLedgerFile(path))).rejects.toMatchObject({ code: 'LEDGER_CORRUPT' });
  });

  it('verifies a record exactly as deep as the ledger allows, and refuses to seal one level more', async () => {
    // The envelope is one level and the payload object another: `deep` may nest the rest.
    const path = file('deepest.jsonl');
    writeFileSync(path, await deepLedger(maxRecordDepth - 2));
    expect(await verifyLedgerFile(path)).toMatchObject({ ok: true, count: 1 });
    writeFileSync(path, await deepLedger(maxRecordDepth - 1));
    expect(await verifyLedgerFile(path)).toMatchObject({ ok: false, seq: 0 });

    const store = new MemoryStore({ clock: steppingClock() });
    const nested = (depth: number): unknown => (depth === 0 ? 0 : [nested(depth - 1)]);
    await store.append({
      runId: 'r',
      kind: 'a.b',
      actor: 'x',
      payload: { deep: nested(maxRecordDepth - 2) } as never,
    });
    const refused = await store
      .append({ runId: 'r', kind: 'a.b', actor: 'x', payload: { deep: nested(maxRecordDepth - 1) } as never })
      .catch((caught: unknown) => caught);
    expect(ToolgateError.is(refused) && refused.code).toBe('INVALID_EVENT');
    expect((refused as Error).message).toMatch(/nests deeper than 2047 levels/);
    expect(await verifyLedgerText(store.toJsonl())).toMatchObject({ ok: true, count: 1 });
  });
});

async function builtVerify(): Promise<typeof verifyLedgerFile> {
  return (
    (await import(join(distribution, 'verify', 'verify.js'))) as { verifyLedgerFile: typeof verifyLedgerFile }
  ).verifyLedgerFile;
}
