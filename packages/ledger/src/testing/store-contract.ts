import { ToolgateError } from '@toolgate/core';
import { describe, expect, it } from 'vitest';
import { lineOf } from '../chain/chain.js';
import { steppingClock } from '../chain/clock.js';
import type { LedgerEvent } from '../chain/event.js';
import { leafHash } from '../merkle/hash.js';
import { inclusionProof } from '../merkle/prove.js';
import { rootOf } from '../merkle/tree.js';
import { verifyInclusion } from '../merkle/verify.js';
import { type LedgerStore, readAll } from '../store.js';

/** The behaviour every store must have, run against each store's factory. */
export function storeContract(name: string, open: (clock: () => Date) => Promise<LedgerStore>): void {
  describe(`${name}: the LedgerStore contract`, () => {
    const draft = (kind: string, runId = 'run-1', payload = {}) => ({
      runId,
      kind,
      actor: 'teller',
      payload,
    });

    it('numbers events from 0, chains them from the genesis hash and stamps them with the clock', async () => {
      const store = await open(steppingClock('2026-03-01T00:00:00.000Z', 1000));
      const first = await store.append(draft('run.started'));
      const second = await store.append(draft('oracle.spoke', 'run-1', { omen: 'moss' }));
      expect(first).toMatchObject({
        seq: 0,
        prev: '0'.repeat(64),
        at: '2026-03-01T00:00:00.000Z',
        id: 'run-1:0',
      });
      expect(second).toMatchObject({ seq: 1, prev: first.hash, at: '2026-03-01T00:00:01.000Z' });
      expect(store.head()).toEqual({ seq: 2, hash: second.hash });
      await store.close();
    });

    it('treats appending an id that exists as a no-op returning the stored event', async () => {
      const store = await open(steppingClock());
      const stored = await store.append({ ...draft('tool.called', 'run-1', { n: 1 }), id: 'once' });
      const again = await store.append({ ...draft('tool.called', 'run-1', { n: 2 }), id: 'once' });
      expect(again).toEqual(stored);
      expect((await readAll(store.read())).length).toBe(1);
      await store.close();
    });

    it('reads all events, one run, one kind and a tail from a seq', async () => {
      const store = await open(steppingClock());
      for (const [kind, run] of [
        ['run.started', 'a'],
        ['tool.called', 'b'],
        ['tool.called', 'a'],
        ['run.ended', 'a'],
      ])
        await store.append(draft(kind!, run));
      const seqs = async (options = {}) => (await readAll(store.read(options))).map((event) => event.seq);
      expect(await seqs()).toEqual([0, 1, 2, 3]);
      expect(await seqs({ runId: 'a' })).toEqual([0, 2, 3]);
      expect(await seqs({ kind: 'tool.called' })).toEqual([1, 2]);
      expect(await seqs({ fromSeq: 2 })).toEqual([2, 3]);
      expect(await seqs({ fromSeq: 9 })).toEqual([]);
      await store.close();
    });

    it('lists the runs in the order they started, with their first and last seq and time', async () => {
      const store = await open(steppingClock('2026-03-01T00:00:00.000Z', 1000));
      expect(await store.runs()).toEqual([]);
      for (const run of ['b', 'a', 'b', 'a', 'a']) await store.append(draft('tool.called', run));
      expect(await store.runs()).toEqual([
        {
          runId: 'b',
          firstSeq: 0,
          lastSeq: 2,
          firstAt: '2026-03-01T00:00:00.000Z',
          lastAt: '2026-03-01T00:00:02.000Z',
          count: 2,
        },
        {
          runId: 'a',
          firstSeq: 1,
          lastSeq: 4,
          firstAt: '2026-03-01T00:00:01.000Z',
          lastAt: '2026-03-01T00:00:04.000Z',
          count: 3,
        },
      ]);
      await store.close();
    });

    it('follows live: stored events first, then each new one as it is appended', async () => {
      const store = await open(steppingClock());
      await store.append(draft('run.started'));
      const controller = new AbortController();
      const seen: LedgerEvent[] = [];
      const following = (async () => {
        for await (const event of store.follow({ signal: controller.signal, runId: 'run-1' })) {
          seen.push(event);
          if (seen.length === 3) controller.abort();
        }
      })();
      await store.append(draft('tool.called', 'other-run'));
      await store.append(draft('tool.called'));
      await store.append(draft('run.ended'));
      await following;
      expect(seen.map((event) => event.kind)).toEqual(['run.started', 'tool.called', 'run.ended']);
      await store.close();
    });

    it('ends a follow when the store closes', async () => {
      const store = await open(steppingClock());
      const following = readAll(store.follow());
      await store.append(draft('run.started'));
      await store.close();
      expect((await following).map((event) => event.seq)).toEqual([0]);
    });

    it.each([
      ['an invalid kind', { kind: 'Tool Called' }, /kind .*dotted lower-case/],
      ['a one-word kind', { kind: 'called' }, /kind/],
      ['an empty actor', { actor: '' }, /actor must not be empty/],
      ['a negative turn', { turn: -1 }, /turn/],
      [
        'a payload with a function',
        { payload: { run: () => 1 } },
        /payload of event "tool.called" is not JSON \(at \$\.run: a function/,
      ],
      ['a payload with NaN', { payload: { n: Number.NaN } }, /payload .* not JSON/],
    ])('refuses %s with a clear error and stores nothing', async (_what, change, message) => {
      const store = await open(steppingClock());
      const error = await store
        .append({ ...draft('tool.called'), ...change } as never)
        .catch((e: unknown) => e);
      expect(ToolgateError.is(error)).toBe(true);
      expect((error as ToolgateError).code).toBe('INVALID_EVENT');
      expect((error as Error).message).toMatch(message);
      expect(store.head().seq).toBe(0);
      await store.close();
    });

    it('keeps the RFC 9162 tree head of its records beside the chain, as appends go on', async () => {
      const store = await open(steppingClock());
      expect(await store.treeHead()).toMatchObject({ size: 0 });
      for (let index = 0; index < 5; index++) await store.append(draft('tool.called', 'run-1', { index }));
      const five = await store.treeHead();
      for (let index = 5; index < 11; index++) await store.append(draft('tool.called', 'run-1', { index }));
      const eleven = await store.treeHead();
      const leaves = (await readAll(store.read())).map((event) => leafHash(lineOf(event)));
      expect(five).toEqual({ size: 5, root: rootOf(leaves, 0, 5) });
      expect(eleven).toEqual({ size: 11, root: rootOf(leaves, 0, 11) });
      const proof = inclusionProof(leaves, 7, 11);
      expect(verifyInclusion({ leaf: leaves[7]!, index: 7, size: 11, proof, root: eleven.root }).ok).toBe(
        true,
      );
      await store.close();
    });

    it('refuses appends after close', async () => {
      const store = await open(steppingClock());
      await store.close();
      await expect(store.append(draft('run.started'))).rejects.toMatchObject({ code: 'LEDGER_UNAVAILABLE' });
    });
  });
}
