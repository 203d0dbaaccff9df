import { readAll, steppingClock } from '@toolgate/ledger';
import { storeContract } from '@toolgate/ledger/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { PostgresStore } from './store.js';
import {
  freshLedgerName,
  postgresSkipReason,
  postgresUrl,
  requirePostgresInContinuousIntegration,
} from './testing/index.js';
import { verifyPostgresLedger } from './verify.js';

requirePostgresInContinuousIntegration(it);
const url = postgresUrl ?? 'postgres://unset';
const opened: PostgresStore[] = [];
afterAll(async () => {
  await Promise.all(opened.map((store) => store.close()));
});

describe.skipIf(postgresUrl === undefined)(
  `PostgresStore (${postgresUrl ? 'on a real server' : postgresSkipReason})`,
  () => {
    storeContract('PostgresStore', async (clock) => {
      const store = await PostgresStore.open(url, { ledger: freshLedgerName('contract'), clock });
      opened.push(store);
      return store;
    });

    it('keeps one chain across two stores appending to the same ledger, and verifies', async () => {
      const ledger = freshLedgerName('two-writers');
      const [first, second] = await Promise.all([
        PostgresStore.open(url, { ledger }),
        PostgresStore.open(`${url}${url.includes('?') ? '&' : '?'}ledger=${ledger}`),
      ]);
      opened.push(first!, second!);
      const appended = await Promise.all(
        Array.from({ length: 40 }, (_, n) =>
          (n % 2 ? first! : second!).append({
            runId: `run-${n % 3}`,
            kind: 'tool.called',
            actor: 'a',
            payload: { n },
          }),
        ),
      );
      expect(appended.map((event) => event.seq).sort((a, b) => a - b)).toEqual([...Array(40).keys()]);
      const events = await readAll(first!.read());
      expect(events.map((event) => event.seq)).toEqual([...Array(40).keys()]);
      for (let seq = 1; seq < events.length; seq++) expect(events[seq]!.prev).toBe(events[seq - 1]!.hash);
      expect(await verifyPostgresLedger(url, { ledger })).toEqual({
        ok: true,
        count: 40,
        last: { seq: 39, hash: events[39]!.hash },
      });
    });

    it('is idempotent on an event id across stores', async () => {
      const ledger = freshLedgerName('idempotent');
      const a = await PostgresStore.open(url, { ledger, clock: steppingClock() });
      const b = await PostgresStore.open(url, { ledger, clock: steppingClock() });
      opened.push(a, b);
      const results = await Promise.all(
        [a, b, a, b].map((store, n) =>
          store.append({ id: 'once', runId: 'r', kind: 'tool.called', actor: 'x', payload: { n } }),
        ),
      );
      expect(new Set(results.map((event) => event.hash)).size).toBe(1);
      expect((await readAll(a.read())).length).toBe(1);
    });

    it('refuses to open a missing ledger when create is false, naming it', async () => {
      const ledger = freshLedgerName('missing');
      await expect(PostgresStore.open(url, { ledger, create: false })).rejects.toMatchObject({
        code: 'LEDGER_UNAVAILABLE',
        message: expect.stringContaining(`there is no ledger`),
      });
    });

    it('names an unreachable server without its password', async () => {
      const error = await PostgresStore.open('postgres://someone:secret@127.0.0.1:1/db?ledger=x').catch(
        (e) => e,
      );
      expect(error).toMatchObject({ code: 'LEDGER_UNAVAILABLE' });
      expect(error.message).toContain('postgres://127.0.0.1:1/db (ledger "x") could not be opened');
      expect(error.message).not.toContain('secret');
    });
  },
);
