import { type EventDraft, emptyHead, steppingClock } from '@toolgate/ledger';
import { sealEvent } from '@toolgate/ledger/internal';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { PostgresStore } from './store.js';
import { freshLedgerName, postgresSkipReason, postgresUrl } from './testing/index.js';
import { verifyPostgresLedger } from './verify.js';

const url = postgresUrl ?? 'postgres://unset';
const database = new pg.Pool({ connectionString: url, max: 1 });
database.on('error', () => {});
afterAll(() => database.end());

describe.skipIf(postgresUrl === undefined)(
  `group commit in PostgreSQL (${postgresUrl ? 'a real server' : postgresSkipReason})`,
  () => {
    it('seals in the database exactly the line sealEvent seals: escapes, non-ASCII, default and given ids', async () => {
      const ledger = freshLedgerName('seal');
      const clock = steppingClock('2026-12-02T03:00:00.000Z', 7);
      const twin = steppingClock('2026-12-02T03:00:00.000Z', 7);
      const store = await PostgresStore.open(url, { ledger, clock });
      const drafts: EventDraft[] = [
        {
          runId: 'run "ü" \\ ok',
          kind: 'tool.called',
          actor: 'agent 🌿',
          payload: { text: 'a\nb\t"c" é 𝄞', n: 1.5 },
        },
        { id: 'given "id" ß', runId: 'plain', kind: 'policy.decided', actor: 'gate', turn: 3, payload: [] },
        {
          runId: 'plain',
          kind: 'tool.returned',
          actor: 'gate',
          payload: { nested: { z: 1, a: [null, true] } },
        },
      ];
      let head = emptyHead;
      for (const draft of drafts) {
        const stored = await store.append(draft);
        const expected = sealEvent(draft, head, twin().toISOString());
        expect(stored).toEqual(expected.event);
        head = { seq: stored.seq + 1, hash: stored.hash };
      }
      await store.close();
      expect(await verifyPostgresLedger(url, { ledger })).toEqual({
        ok: true,
        count: 3,
        last: { seq: 2, hash: head.hash },
      });
    });

    it('seals the appends queued in one process in one commit, in call order, each id once', async () => {
      const ledger = freshLedgerName('batch');
      const store = await PostgresStore.open(url, { ledger });
      const drafts: EventDraft[] = Array.from({ length: 20 }, (_, n) => ({
        id: `call-${n % 15}`, // the last five repeat ids queued before them in the same batch
        runId: 'batch',
        kind: 'tool.called',
        actor: 'w',
        payload: { n },
      }));
      const stored = await Promise.all(drafts.map((draft) => store.append(draft)));
      await store.close();
      expect(stored.slice(0, 15).map((event) => event.seq)).toEqual([...Array(15).keys()]);
      expect(stored.slice(15)).toEqual(stored.slice(0, 5)); // a repeated id gets the stored record
      const { rows } = await database.query(
        'SELECT count(*)::int AS records, count(DISTINCT xmin::text)::int AS commits FROM toolgate_ledger_events WHERE ledger = $1',
        [ledger],
      );
      expect(rows[0]).toEqual({ records: 15, commits: 2 }); // the first append, then the 19 queued behind it
      expect(await verifyPostgresLedger(url, { ledger })).toMatchObject({ ok: true, count: 15 });
    });

    it('keeps one chain with many writers sealing at once, each writer in its call order', async () => {
      const ledger = freshLedgerName('writers');
      const stores = await Promise.all(Array.from({ length: 6 }, () => PostgresStore.open(url, { ledger })));
      await Promise.all(
        stores.map(async (store, writer) => {
          for (let n = 0; n < 20; n++)
            await store.append({ runId: `w${writer}`, kind: 'tool.called', actor: 'w', payload: { n } });
        }),
      );
      await Promise.all(stores.map((store) => store.close()));
      const { rows } = await database.query(
        'SELECT run_id, line FROM toolgate_ledger_events WHERE ledger = $1 ORDER BY seq',
        [ledger],
      );
      expect(rows).toHaveLength(120);
      for (let writer = 0; writer < 6; writer++) {
        const own = rows
          .filter((row) => row.run_id === `w${writer}`)
          .map((row) => (JSON.parse(row.line) as { payload: { n: number } }).payload.n);
        expect(own).toEqual([...Array(20).keys()]);
      }
      expect(await verifyPostgresLedger(url, { ledger })).toMatchObject({ ok: true, count: 120 });
    });
  },
);
