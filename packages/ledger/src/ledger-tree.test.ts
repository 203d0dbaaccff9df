import { describe, expect, it } from 'vitest';
import { lineOf } from './chain/chain.js';
import { steppingClock } from './chain/clock.js';
import type { LedgerEvent } from './chain/event.js';
import { LedgerTree, recordLeaf } from './ledger-tree.js';
import { MemoryStore } from './memory-store.js';
import { rootOf } from './merkle/tree.js';
import { readAll } from './store.js';

async function sample(count: number): Promise<LedgerEvent[]> {
  const store = new MemoryStore({ clock: steppingClock() });
  for (let index = 0; index < count; index++) {
    await store.append({ runId: 'run-1', kind: 'tool.called', actor: 'teller', payload: { index } });
  }
  return readAll(store.read());
}

describe('LedgerTree', () => {
  it('takes no tree head over a record edited after it was sealed', async () => {
    const events = await sample(4);
    const edited = events.map((event) => (event.seq === 2 ? { ...event, payload: { index: 20 } } : event));
    const tree = new LedgerTree(async function* (fromSeq) {
      yield* edited.slice(fromSeq);
    });
    await expect(tree.head()).rejects.toMatchObject({
      code: 'LEDGER_CORRUPT',
      message: expect.stringContaining('the record at seq 2 is bad'),
    });
  });

  it('catches up from the store and then takes the records it is fed, each once', async () => {
    const events = await sample(9);
    let reads = 0;
    const tree = new LedgerTree(async function* (fromSeq) {
      reads++;
      yield* events.slice(fromSeq, 5);
    });
    expect(await tree.head()).toEqual({ size: 5, root: rootOf(events.map(recordLeaf), 0, 5) });
    for (const event of events.slice(5)) tree.sealed(event.seq, lineOf(event), event.hash);
    expect(await tree.head()).toEqual({ size: 9, root: rootOf(events.map(recordLeaf)) });
    expect(reads).toBe(2); // the second head read nothing new: the fed records were already in
  });
});
