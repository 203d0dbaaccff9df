import { describe, expect, it, vi } from 'vitest';
import { steppingClock } from './chain/clock.js';
import { parseCheckpoint } from './checkpoint/checkpoint.js';
import { generateNoteKeys, parseVerifierKey } from './checkpoint/keys.js';
import { openNote } from './checkpoint/note.js';
import { Checkpointer } from './checkpointer.js';
import { recordLeaf } from './ledger-tree.js';
import { MemoryStore } from './memory-store.js';
import { rootOf } from './merkle/tree.js';
import { readAll } from './store.js';

describe('Checkpointer', () => {
  it('signs a checkpoint once N records were appended since the last, and a last one when stopped, each verifying against the store', async () => {
    const keys = generateNoteKeys('example.com/agents');
    const store = new MemoryStore({ clock: steppingClock() });
    const written: string[] = [];
    const checkpoints = Checkpointer.start({
      store,
      key: keys.signerKey,
      everyRecords: 5,
      write: (note) => void written.push(note),
    });
    const append = async (count: number) => {
      for (let index = 0; index < count; index++) {
        await store.append({ runId: 'run-1', kind: 'tool.called', actor: 'teller', payload: { index } });
      }
    };
    await append(5);
    await vi.waitFor(() => expect(written.length).toBe(1), { timeout: 30_000 });
    await append(5);
    await vi.waitFor(() => expect(written.length).toBe(2), { timeout: 30_000 });
    await append(2);
    await checkpoints.stop();
    const verifier = parseVerifierKey(keys.verifierKey);
    if (!verifier.ok) throw new Error(verifier.reason);
    const leaves = (await readAll(store.read())).map(recordLeaf);
    const heads = written.map((note) => {
      const opened = openNote(note, [verifier.value]);
      if (!opened.ok) throw new Error(opened.reason);
      const checkpoint = parseCheckpoint(opened.value.text);
      if (!checkpoint.ok) throw new Error(checkpoint.reason);
      return checkpoint.value;
    });
    expect(heads.map((head) => head.size)).toEqual([5, 10, 12]);
    for (const head of heads) expect(head.root).toEqual(rootOf(leaves, 0, head.size));
    expect(heads[0]?.origin).toBe('example.com/agents');
    await store.close();
  });

  it('signs on a timer only when records arrived, and refuses a witness key', async () => {
    const store = new MemoryStore({ clock: steppingClock() });
    const sizes: number[] = [];
    const checkpoints = Checkpointer.start({
      store,
      key: generateNoteKeys('example.com/agents').signerKey,
      everySeconds: 0.02,
      write: (_note, head) => void sizes.push(head.size),
    });
    await store.append({ runId: 'run-1', kind: 'run.started', actor: 'system' });
    await vi.waitFor(() => expect(sizes).toEqual([1]), { timeout: 30_000 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(sizes).toEqual([1]); // nothing new: no checkpoint of the same size again
    await checkpoints.stop();
    expect(() =>
      Checkpointer.start({ store, key: generateNoteKeys('w.example', 'witness').signerKey, write: () => {} }),
    ).toThrow(/witness key/);
    await store.close();
  });
});
