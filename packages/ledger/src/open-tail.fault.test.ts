import { readFileSync, writeFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { steppingClock } from './chain/clock.js';
import { FileStore } from './file/file-store.js';
import { readLedgerFile } from './file/read-file.js';
import { tailWindowBytes } from './file/tail.js';
import { MemoryStore } from './memory-store.js';
import { runsOf } from './runs.js';
import { readAll } from './store.js';
import { temporaryFiles } from './testing/files.js';
import { verifyLedgerFile } from './verify/verify.js';

const file = temporaryFiles();
const records = 20_000;
let jsonl = '';

beforeAll(async () => {
  const store = new MemoryStore({ clock: steppingClock() });
  for (let seq = 0; seq < records; seq++) {
    await store.append({
      runId: `run-${Math.floor(seq / 5_000)}`,
      kind: 'tool.called',
      actor: 'teller',
      payload: { callId: `call-${seq}`, text: 'moss on the north stones' },
      id: `id-${seq}`,
    });
  }
  jsonl = store.toJsonl();
  expect(Buffer.byteLength(jsonl)).toBeGreaterThan(50 * tailWindowBytes);
});

/** The ledger with the record at `seq` edited (its hash no longer matches). */
function editedAt(seq: number): string {
  const lines = jsonl.split('\n');
  lines[seq] = lines[seq]!.replace(`"call-${seq}"`, `"call-X${seq}"`);
  return lines.join('\n');
}

describe('FileStore.open reads the tail, not the file', () => {
  it('opens a ledger with a record edited far before its tail, appends onto its head, and verify still names the record', async () => {
    const path = file('edited-early.jsonl');
    writeFileSync(path, editedAt(10));
    const store = await FileStore.open(path, { clock: steppingClock() });
    expect(store.head().seq).toBe(records);
    const appended = await store.append({ runId: 'run-9', kind: 'run.ended', actor: 'system' });
    expect(appended).toMatchObject({ seq: records, prev: JSON.parse(jsonl.split('\n')[records - 1]!).hash });
    await store.close();
    expect(await verifyLedgerFile(path)).toMatchObject({
      ok: false,
      seq: 10,
      reason: expect.stringMatching(/hash does not match/),
    });
  });

  it("with check: 'chain', refuses that ledger as open did before, naming the record", async () => {
    const path = file('edited-early-chain.jsonl');
    writeFileSync(path, editedAt(10));
    await expect(FileStore.open(path, { check: 'chain' })).rejects.toMatchObject({
      code: 'LEDGER_CORRUPT',
      message: expect.stringMatching(/seq 10 \(line 11\) is bad: its hash does not match/),
    });
    writeFileSync(path, jsonl);
    const sound = await FileStore.open(path, { check: 'chain' });
    expect(sound.head().seq).toBe(records);
    await sound.close();
  });

  it('refuses a ledger whose edited record is in its tail, naming it', async () => {
    const path = file('edited-late.jsonl');
    writeFileSync(path, editedAt(records - 3));
    await expect(FileStore.open(path)).rejects.toMatchObject({
      code: 'LEDGER_CORRUPT',
      message: expect.stringMatching(new RegExp(`seq ${records - 3} .*hash does not match`)),
    });
  });

  it('refuses an unknown check', async () => {
    await expect(FileStore.open(file('x.jsonl'), { check: 'some' as never })).rejects.toMatchObject({
      code: 'INVALID_DEFINITION',
      message: expect.stringMatching(/check "some" is not one of "tail", "chain"/),
    });
  });

  it('reads, follows and lists the runs of records it never held, found in the file', async () => {
    const path = file('reopened.jsonl');
    writeFileSync(path, jsonl);
    const store = await FileStore.open(path, { clock: steppingClock() });
    const events = await readAll(store.read({ fromSeq: 12_345 }));
    expect(events.length).toBe(records - 12_345);
    expect(events[0]).toEqual(JSON.parse(jsonl.split('\n')[12_345]!));
    for (const seq of [0, 1, 4_999, 5_000, records - 1_500, records - 1]) {
      const [first] = await readAll(store.read({ fromSeq: seq, kind: 'tool.called' }));
      expect(first?.seq).toBe(seq);
    }
    expect(await store.runs()).toEqual(await runsOf(readLedgerFile(path)));
    const controller = new AbortController();
    const followed: number[] = [];
    const following = (async () => {
      for await (const event of store.follow({ fromSeq: 3, signal: controller.signal })) {
        followed.push(event.seq);
        if (event.seq === records) controller.abort();
      }
    })();
    await store.append({ runId: 'run-9', kind: 'run.ended', actor: 'system' });
    await following;
    expect(followed.length).toBe(records - 2);
    expect(followed.at(-1)).toBe(records);
    await store.close();
  });

  it('treats a retried id of the latest records as a no-op after a reopen', async () => {
    const path = file('retried.jsonl');
    writeFileSync(path, jsonl);
    const store = await FileStore.open(path);
    const last = JSON.parse(jsonl.split('\n')[records - 1]!);
    expect(
      await store.append({ runId: 'run-3', kind: 'tool.called', actor: 'teller', id: `id-${records - 1}` }),
    ).toEqual(last);
    expect(store.head().seq).toBe(records);
    await store.close();
    expect(readFileSync(path, 'utf8')).toBe(jsonl);
  });

  it('reads a last record longer than the window it reads first', async () => {
    const path = file('long-last.jsonl');
    const memory = new MemoryStore({ clock: steppingClock() });
    await memory.append({ runId: 'r', kind: 'run.started', actor: 'system' });
    await memory.append({
      runId: 'r',
      kind: 'oracle.spoke',
      actor: 'oracle',
      payload: { text: 'moss '.repeat(60_000) },
    });
    writeFileSync(path, memory.toJsonl().slice(0, -1)); // and lacking its newline
    const store = await FileStore.open(path, { clock: steppingClock() });
    expect(store.newlineAdded).toBe(1);
    expect(store.head()).toEqual(memory.head());
    await store.close();
    expect(readFileSync(path, 'utf8')).toBe(memory.toJsonl());
  });
});
