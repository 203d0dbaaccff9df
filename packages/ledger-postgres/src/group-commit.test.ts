import { type EventDraft, emptyHead, steppingClock } from '@toolgate/ledger';
import { sealEvent } from '@toolgate/ledger/internal';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { waitingTable } from './group-commit-schema.js';
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

    it("drops a waiting draft whose writer's session is gone instead of sealing it", async () => {
      const ledger = freshLedgerName('orphan');
      const store = await PostgresStore.open(url, { ledger });
      await store.append({ runId: 'before', kind: 'run.started', actor: 'seed' });
      // A draft left by a writer killed after putting it in the table: its session (pid 0) is gone.
      await database.query(
        `INSERT INTO ${waitingTable} (ledger, owner, epoch, draft_id, run_id, kind, at, front, id_text, id_prefix, middle, tail, finish)
         VALUES ($1, 0, pg_postmaster_start_time(), 'orphan', 'orphan', 'tool.called', 'x', '{', '"orphan"', NULL, ',', ',', '}')`,
        [ledger],
      );
      const after = await store.append({ runId: 'after', kind: 'run.started', actor: 'survivor' });
      expect(after.seq).toBe(1);
      const left = await database.query(
        `SELECT count(*)::int AS count FROM ${waitingTable} WHERE ledger = $1`,
        [ledger],
      );
      expect(left.rows[0].count).toBe(0);
      const ids = await database.query(
        'SELECT id FROM toolgate_ledger_events WHERE ledger = $1 ORDER BY seq',
        [ledger],
      );
      expect(ids.rows.map((row) => row.id)).toEqual(['before:0', 'after:1']);
      await store.close();
    });

    it('seals the waiting drafts of many live writers in fewer commits than records', async () => {
      const ledger = freshLedgerName('grouped');
      const stores = await Promise.all(Array.from({ length: 6 }, () => PostgresStore.open(url, { ledger })));
      await Promise.all(
        stores.map(async (store, writer) => {
          for (let n = 0; n < 20; n++)
            await store.append({ runId: `w${writer}`, kind: 'tool.called', actor: 'w' });
        }),
      );
      await Promise.all(stores.map((store) => store.close()));
      const { rows } = await database.query(
        'SELECT count(*)::int AS records, count(DISTINCT xmin::text)::int AS commits FROM toolgate_ledger_events WHERE ledger = $1',
        [ledger],
      );
      expect(rows[0].records).toBe(120);
      expect(rows[0].commits).toBeLessThan(120); // some commit sealed several writers' drafts
      expect(await verifyPostgresLedger(url, { ledger })).toMatchObject({ ok: true, count: 120 });
    });
  },
);
