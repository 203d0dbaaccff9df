import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readAll } from '../store.js';
import { temporaryFiles } from '../testing/files.js';
import { writeSampleLedger } from '../testing/sample.js';
import { FileStore } from './file-store.js';
import { readLedgerFile } from './read-file.js';

const file = temporaryFiles();

describe('readLedgerFile', () => {
  it('reads a ledger without taking the writer lock, filtered by run and kind', async () => {
    const path = file('sample.jsonl');
    const events = await writeSampleLedger(path);
    const writer = await FileStore.open(path); // a writer holds it; reading is still allowed
    expect(await readAll(readLedgerFile(path))).toEqual(events);
    expect(
      (await readAll(readLedgerFile(path, { runId: 'a', kind: 'tool.called' }))).map((e) => e.seq),
    ).toEqual([1]);
    await writer.close();
  });

  it('throws LEDGER_CORRUPT naming the first bad record, after yielding the good ones', async () => {
    const path = file('bad.jsonl');
    await writeSampleLedger(path);
    writeFileSync(path, readFileSync(path, 'utf8').replace('"omen":"rain"', '"omen":"snow"'));
    const seen: number[] = [];
    const error = await (async () => {
      for await (const event of readLedgerFile(path)) seen.push(event.seq);
    })().catch((e: unknown) => e);
    expect(seen).toEqual([0, 1, 2]);
    expect(error).toMatchObject({
      code: 'LEDGER_CORRUPT',
      message: expect.stringMatching(/seq 3 \(line 4\) is bad/),
    });
  });

  it('reports a torn last line when not following', async () => {
    const path = file('torn.jsonl');
    await writeSampleLedger(path);
    appendFileSync(path, '{"actor":"sys');
    await expect(readAll(readLedgerFile(path))).rejects.toThrow(/seq 4 is bad: the last line has no newline/);
  });

  it('yields a whole last record that lacks only its newline when not following', async () => {
    const path = file('unterminated.jsonl');
    const events = await writeSampleLedger(path);
    writeFileSync(path, readFileSync(path, 'utf8').slice(0, -1));
    expect(await readAll(readLedgerFile(path))).toEqual(events);
  });

  it('follows: waits at the end (and for a line still being written) until the signal aborts', async () => {
    const path = file('follow.jsonl');
    const store = await FileStore.open(path);
    await store.append({ runId: 'r', kind: 'run.started', actor: 'system' });
    const controller = new AbortController();
    const seen: string[] = [];
    const following = (async () => {
      for await (const event of readLedgerFile(path, {
        follow: true,
        signal: controller.signal,
        pollMs: 5,
      })) {
        seen.push(event.kind);
        if (seen.length === 2) controller.abort();
      }
    })();
    await store.append({ runId: 'r', kind: 'oracle.spoke', actor: 'oracle' });
    await following;
    await store.close();
    expect(seen).toEqual(['run.started', 'oracle.spoke']);
  });
});
