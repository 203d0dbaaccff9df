import { describe, expect, it } from 'vitest';
import { steppingClock } from './chain/clock.js';
import { MemoryStore } from './memory-store.js';
import { storeContract } from './testing/store-contract.js';
import { verifyLedgerText } from './verify/verify.js';

storeContract('MemoryStore', async (clock) => new MemoryStore({ clock }));

describe('MemoryStore', () => {
  it('writes the same JSONL a file store would, which verifies', async () => {
    const store = new MemoryStore({ clock: steppingClock() });
    await store.append({ runId: 'r', kind: 'run.started', actor: 'system', payload: { b: 2, a: 1 } });
    const text = store.toJsonl();
    expect(text).toMatch(/^\{"actor":"system","at":.*"payload":\{"a":1,"b":2\}.*\}\n$/);
    expect(await verifyLedgerText(text)).toMatchObject({ ok: true, count: 1 });
  });

  it('keeps its own copy of a payload, so a caller mutating it later changes nothing', async () => {
    const store = new MemoryStore({ clock: steppingClock() });
    const payload = { list: [1] };
    await store.append({ runId: 'r', kind: 'run.started', actor: 'system', payload });
    payload.list.push(2);
    expect(await verifyLedgerText(store.toJsonl())).toMatchObject({ ok: true });
    for await (const event of store.read()) expect(event.payload).toEqual({ list: [1] });
  });
});
