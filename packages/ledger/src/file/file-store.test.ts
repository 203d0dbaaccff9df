import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { steppingClock } from '../chain/clock.js';
import { MemoryStore } from '../memory-store.js';
import { readAll } from '../store.js';
import { temporaryFiles } from '../testing/files.js';
import { storeContract } from '../testing/store-contract.js';
import { verifyLedgerFile } from '../verify/verify.js';
import { FileStore } from './file-store.js';

const file = temporaryFiles();
let opened = 0;
storeContract('FileStore', (clock) => FileStore.open(file(`contract-${++opened}.jsonl`), { clock }));

const draft = (kind: string, payload = {}) => ({ runId: 'run-1', kind, actor: 'teller', payload });

describe('FileStore', () => {
  it('writes one canonical line per event, byte-identical to the memory store, and reopens where it left off', async () => {
    const path = file('ledger.jsonl');
    const memory = new MemoryStore({ clock: steppingClock() });
    const store = await FileStore.open(path, { clock: steppingClock() });
    for (const kind of ['run.started', 'oracle.spoke']) {
      await store.append(draft(kind, { kind }));
      await memory.append(draft(kind, { kind }));
    }
    await store.close();
    expect(readFileSync(path, 'utf8')).toBe(memory.toJsonl());

    const reopened = await FileStore.open(path, { clock: steppingClock('2026-02-01T00:00:00.000Z') });
    expect(reopened.recovered).toBeUndefined();
    const third = await reopened.append(draft('run.ended'));
    expect(third).toMatchObject({ seq: 2, prev: memory.head().hash });
    await reopened.close();
    expect(await verifyLedgerFile(path)).toMatchObject({ ok: true, count: 3 });
  });

  it.each(['always', 'batch', 'none'] as const)(
    'keeps every concurrent append whole and in order with durability %s',
    async (durability) => {
      const path = file(`${durability}.jsonl`);
      const store = await FileStore.open(path, { durability, clock: steppingClock() });
      const appended = await Promise.all(
        Array.from({ length: 40 }, (_, n) => store.append(draft('tool.called', { n }))),
      );
      expect(appended.map((event) => event.seq)).toEqual(Array.from({ length: 40 }, (_, n) => n));
      await store.close();
      const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
      expect(lines.map((line) => JSON.parse(line).payload.n)).toEqual(
        Array.from({ length: 40 }, (_, n) => n),
      );
      expect(await verifyLedgerFile(path)).toMatchObject({ ok: true, count: 40 });
    },
  );

  it('group-commits in batch mode: appends that arrive together share one fsync; always gives each its own', async () => {
    const counts: Record<string, number> = {};
    for (const durability of ['batch', 'always', 'none'] as const) {
      const store = await FileStore.open(file(`fsyncs-${durability}.jsonl`), { durability });
      await Promise.all(Array.from({ length: 20 }, (_, n) => store.append(draft('tool.called', { n }))));
      counts[durability] = store.fsyncs;
      await store.close();
    }
    expect(counts).toEqual({ batch: 1, always: 20, none: 0 });
  });

  it.each([8, 16])(
    'merges %i appenders that each await their append into one fsync per round: the most a group commit can merge',
    async (appenders) => {
      const store = await FileStore.open(file(`merge-${appenders}.jsonl`), { durability: 'batch' });
      const rounds = 12;
      await Promise.all(
        Array.from({ length: appenders }, async (_, lane) => {
          for (let round = 0; round < rounds; round++)
            await store.append(draft('tool.called', { lane, round }));
        }),
      );
      expect(store.fsyncs).toBe(rounds);
      await store.close();
      expect(await verifyLedgerFile(store.path)).toMatchObject({ ok: true, count: appenders * rounds });
    },
  );

  it('issues no fsync per append in none mode, and one on flush: a checkpoint at a boundary of your own', async () => {
    const store = await FileStore.open(file('flush.jsonl'), { durability: 'none' });
    for (const kind of ['run.started', 'world.observed', 'oracle.spoke']) await store.append(draft(kind));
    expect(store.fsyncs).toBe(0);
    await store.flush();
    expect(store.fsyncs).toBe(1);
    await store.close();
    await expect(store.flush()).rejects.toMatchObject({ code: 'LEDGER_UNAVAILABLE' });
  });

  it('keeps byte offsets right across chunk boundaries and multi-byte text, so a reopened file appends soundly', async () => {
    const path = file('wide.jsonl');
    const store = await FileStore.open(path, { durability: 'none', clock: steppingClock() });
    const characters = [...'é✓𝄞 moss '.repeat(40)];
    const text = (n: number) => characters.slice(n % 7).join('');
    for (let n = 0; n < 3000; n++) await store.append(draft('oracle.spoke', { n, text: text(n) }));
    await store.close();
    expect(readFileSync(path).length).toBeGreaterThan(2 ** 21); // many 64 KiB read chunks
    const reopened = await FileStore.open(path, { clock: steppingClock() });
    const duplicate = await reopened.append({ ...draft('oracle.spoke'), id: 'run-1:2999' });
    expect(duplicate.payload).toEqual({ n: 2999, text: text(2999) });
    await reopened.append(draft('run.ended'));
    await reopened.close();
    expect(await verifyLedgerFile(path)).toMatchObject({ ok: true, count: 3001 });
  });

  it('remembers ids across a reopen, so a retried append after a restart is still a no-op', async () => {
    const path = file('ids.jsonl');
    const store = await FileStore.open(path);
    const stored = await store.append({ ...draft('tool.called'), id: 'call-1:tool.called' });
    await store.close();
    const reopened = await FileStore.open(path);
    expect(
      await reopened.append({ ...draft('tool.called', { other: 1 }), id: 'call-1:tool.called' }),
    ).toEqual(stored);
    expect(reopened.head().seq).toBe(1);
    await reopened.close();
  });

  it('cuts off a torn last line on open and reports it', async () => {
    const path = file('torn.jsonl');
    const store = await FileStore.open(path, { clock: steppingClock() });
    await store.append(draft('run.started'));
    await store.close();
    const good = readFileSync(path, 'utf8');
    appendFileSync(path, '{"actor":"teller","at":"2026-01-0');
    const reopened = await FileStore.open(path, { clock: steppingClock() });
    expect(reopened.recovered).toEqual({ seq: 1, offset: Buffer.byteLength(good), bytes: 33 });
    expect((await reopened.append(draft('run.ended'))).seq).toBe(1);
    await reopened.close();
    expect(readFileSync(path, 'utf8').startsWith(good)).toBe(true);
    expect(await verifyLedgerFile(path)).toMatchObject({ ok: true, count: 2 });
  });

  it('keeps a whole last record that lacks only its newline, adds the newline and says so', async () => {
    const path = file('unterminated.jsonl');
    const store = await FileStore.open(path, { clock: steppingClock() });
    await store.append(draft('run.started'));
    await store.append(draft('tool.called'));
    await store.close();
    const whole = readFileSync(path, 'utf8');
    writeFileSync(path, whole.slice(0, -1));
    expect(await verifyLedgerFile(path)).toMatchObject({ ok: true, count: 2 });
    const reopened = await FileStore.open(path, { clock: steppingClock() });
    expect(reopened.newlineAdded).toBe(1);
    expect(reopened.recovered).toBeUndefined();
    expect(reopened.head().seq).toBe(2);
    expect(readFileSync(path, 'utf8')).toBe(whole);
    expect((await reopened.append(draft('run.ended'))).seq).toBe(2);
    await reopened.close();
    expect(await verifyLedgerFile(path)).toMatchObject({ ok: true, count: 3 });
  });

  it('still cuts a torn last record that lacks more than its newline', async () => {
    const path = file('torn-record.jsonl');
    const store = await FileStore.open(path, { clock: steppingClock() });
    await store.append(draft('run.started'));
    await store.append(draft('tool.called'));
    await store.close();
    const whole = readFileSync(path, 'utf8');
    writeFileSync(path, whole.slice(0, -2)); // the closing brace is gone too
    const reopened = await FileStore.open(path, { clock: steppingClock() });
    expect(reopened.newlineAdded).toBeUndefined();
    expect(reopened.recovered).toMatchObject({ seq: 1 });
    expect(reopened.head().seq).toBe(1);
    await reopened.close();
  });

  it('refuses to open a ledger with a bad record in the middle, naming it, and never skips it', async () => {
    const path = file('bad-middle.jsonl');
    const store = await FileStore.open(path, { clock: steppingClock() });
    for (const kind of ['run.started', 'tool.called', 'run.ended']) await store.append(draft(kind));
    await store.close();
    const lines = readFileSync(path, 'utf8').split('\n');
    lines[1] = lines[1]!.replace('tool.called', 'tool.kalled');
    writeFileSync(path, lines.join('\n'));
    await expect(FileStore.open(path)).rejects.toMatchObject({
      code: 'LEDGER_CORRUPT',
      message: expect.stringMatching(/seq 1 \(line 2\) is bad: its hash does not match/),
    });
    // the refused open released its lock: a later open is refused for the record, not the lock
    await expect(FileStore.open(path)).rejects.toMatchObject({ code: 'LEDGER_CORRUPT' });
  });

  it('refuses a ledger written by a newer schema version, saying to upgrade', async () => {
    const path = file('newer.jsonl');
    const memory = new MemoryStore({ clock: steppingClock() });
    await memory.append(draft('run.started'));
    writeFileSync(path, memory.toJsonl().replace('"schemaVersion":1', '"schemaVersion":3'));
    await expect(FileStore.open(path)).rejects.toMatchObject({
      code: 'LEDGER_UNAVAILABLE',
      message: expect.stringMatching(/schema version 3.*upgrade @toolgate\/ledger/),
    });
  });

  it('refuses a second writer in the same process, and takes over once the first closed', async () => {
    const path = file('one-writer.jsonl');
    const first = await FileStore.open(path);
    await expect(FileStore.open(path)).rejects.toMatchObject({
      code: 'LEDGER_UNAVAILABLE',
      message: expect.stringMatching(/already open for writing by process \d+ \(this process\)/),
    });
    await first.close();
    const second = await FileStore.open(path);
    await second.close();
  });

  it('takes over a stale lock whose writer is dead', async () => {
    const path = file('stale.jsonl');
    writeFileSync(`${path}.lock`, '999999999\n');
    const store = await FileStore.open(path);
    expect(readFileSync(`${path}.lock`, 'utf8').trim()).toBe(String(process.pid));
    await store.close();
  });

  it('reads back what it appended while still open, by run and from a seq', async () => {
    const store = await FileStore.open(file('reads.jsonl'), { durability: 'none' });
    await store.append({ ...draft('run.started'), runId: 'a' });
    await store.append({ ...draft('run.started'), runId: 'b' });
    expect((await readAll(store.read({ runId: 'b' }))).map((event) => event.seq)).toEqual([1]);
    expect((await readAll(store.read({ fromSeq: 1 }))).map((event) => event.runId)).toEqual(['b']);
    await store.close();
  });

  it('refuses an unknown durability mode', async () => {
    await expect(FileStore.open(file('x.jsonl'), { durability: 'sometimes' as never })).rejects.toMatchObject(
      {
        code: 'INVALID_DEFINITION',
      },
    );
  });
});
