import { execSync } from 'node:child_process';
import { readAll } from '@toolgate/ledger';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { PostgresStore } from './store.js';
import { WriterProcess } from './test-support/writer-process.js';
import {
  freshLedgerName,
  postgresSkipReason,
  postgresUrl,
  requirePostgresInContinuousIntegration,
} from './testing/index.js';
import { verifyPostgresLedger } from './verify.js';

requirePostgresInContinuousIntegration(it);
const url = postgresUrl ?? 'postgres://unset';
/** A shell command that restarts the test server (`pg_ctl restart`); .ci/run sets it. */
const restartCommand = process.env.TOOLGATE_TEST_POSTGRES_RESTART;
if (postgresUrl !== undefined && restartCommand === undefined && process.env.CI === 'true') {
  it('can restart the PostgreSQL server under the writers (CI never skips the restart test)', () => {
    throw new Error(
      'CI=true but TOOLGATE_TEST_POSTGRES_RESTART is not set: .ci/run sets it to a pg_ctl restart',
    );
  });
}

const writers: WriterProcess[] = [];
const spawnWriter = (...args: ConstructorParameters<typeof WriterProcess>) => {
  const writer = new WriterProcess(...args);
  writers.push(writer);
  return writer;
};
afterEach(async () => {
  for (const writer of writers.splice(0)) {
    writer.kill();
    await writer.exited;
  }
});
const database = new pg.Pool({ connectionString: url, max: 2 });
database.on('error', () => {});
afterAll(() => database.end());

async function chainOf(ledger: string) {
  const store = await PostgresStore.open(url, { ledger, create: false });
  try {
    return await readAll(store.read());
  } finally {
    await store.close();
  }
}

describe.skipIf(postgresUrl === undefined)(
  `PostgresStore under faults (${postgresUrl ? 'a real server' : postgresSkipReason})`,
  () => {
    it('keeps one chain, no gaps and no forks, with 8 writer processes appending 500 records each', async () => {
      const ledger = freshLedgerName('fleet');
      const fleet = Array.from({ length: 8 }, (_, n) => spawnWriter(url, ledger, `writer-${n}`, 500));
      const codes = await Promise.all(fleet.map((writer) => writer.exited));
      expect(codes).toEqual(Array(8).fill(0));
      expect(fleet.map((writer) => writer.lines.at(-1))).toEqual(Array(8).fill('done 500'));
      const events = await chainOf(ledger);
      expect(events.map((event) => event.seq)).toEqual([...Array(4000).keys()]);
      expect(new Set(events.map((event) => event.id)).size).toBe(4000);
      for (let n = 0; n < 8; n++) {
        const own = events
          .filter((event) => event.runId === `writer-${n}`)
          .map((event) => (event.payload as { n: number }).n);
        expect(own).toEqual([...Array(500).keys()]); // each writer's appends stand in its call order
      }
      const verified = await verifyPostgresLedger(url, { ledger });
      expect(verified).toEqual({ ok: true, count: 4000, last: { seq: 3999, hash: events[3999]!.hash } });
    }, 600_000);

    it.each([
      ['its session is ended before the transaction can go on (nothing of it stays)', true],
      ['the server finishes the statements it was already sent (all of it stays)', false],
    ])(
      'leaves no partial record when a writer is killed -9 inside its append transaction: %s',
      async (_what, endSession) => {
        const ledger = freshLedgerName('killed');
        const store = await PostgresStore.open(url, { ledger });
        for (let n = 0; n < 3; n++)
          await store.append({ runId: 'before', kind: 'run.started', actor: 'seed' });
        const headBefore = store.head();
        // An uncommitted row at the next seq: the writer takes the head lock to seal its draft, and its
        // INSERT waits on this row, inside its sealing transaction.
        const blocker = await database.connect();
        await blocker.query('BEGIN');
        await blocker.query(
          "INSERT INTO toolgate_ledger_events (ledger, seq, id, run_id, kind, at, line) VALUES ($1, $2, 'blocker', 'x', 'x.x', 'x', 'x')",
          [ledger, headBefore.seq],
        );
        const application = freshLedgerName('victim');
        const victim = spawnWriter(
          `${url}${url.includes('?') ? '&' : '?'}application_name=${application}`,
          ledger,
          'victim',
          1,
        );
        const waiting = async () =>
          (
            await database.query(
              "SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock' AND query LIKE '%toolgate_ledger_seal(%'",
              [application],
            )
          ).rows[0]?.pid as number | undefined;
        let backend = await waiting();
        for (let tries = 0; backend === undefined; tries++) {
          expect(tries, 'the writer never reached its INSERT').toBeLessThan(300);
          await new Promise((resolve) => setTimeout(resolve, 100));
          backend = await waiting();
        }
        const moved = await database.query('SELECT next_seq FROM toolgate_ledger_heads WHERE ledger = $1', [
          ledger,
        ]);
        expect(Number(moved.rows[0].next_seq)).toBe(headBefore.seq); // its head move is not visible: uncommitted
        victim.child.kill('SIGKILL');
        await victim.exited;
        // The server notices a dead client only when it next reads from it; ending the session is what
        // a check of the connection (client_connection_check_interval) or a timeout would do.
        if (endSession) await database.query('SELECT pg_terminate_backend($1)', [backend]);
        await blocker.query('ROLLBACK');
        blocker.release();
        for (let tries = 0; ; tries++) {
          const left = await database.query('SELECT 1 FROM pg_stat_activity WHERE application_name = $1', [
            application,
          ]);
          if (left.rowCount === 0) break;
          expect(tries, "the killed writer's session never ended").toBeLessThan(300);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        const events = await chainOf(ledger);
        expect(events.map((event) => event.runId)).toEqual(
          endSession ? ['before', 'before', 'before'] : ['before', 'before', 'before', 'victim'],
        );
        const head = await database.query(
          'SELECT next_seq, hash FROM toolgate_ledger_heads WHERE ledger = $1',
          [ledger],
        );
        expect({ seq: Number(head.rows[0].next_seq), hash: head.rows[0].hash }).toEqual({
          seq: events.length,
          hash: events.at(-1)!.hash,
        });
        const next = await store.append({ runId: 'after', kind: 'run.started', actor: 'survivor' });
        expect(next).toMatchObject({ seq: events.length, prev: events.at(-1)!.hash });
        expect(await verifyPostgresLedger(url, { ledger })).toMatchObject({
          ok: true,
          count: events.length + 1,
        });
        await store.close();
      },
    );

    it.skipIf(restartCommand === undefined)(
      `fails appends with a clear error while the server restarts, then reconnects and continues (${restartCommand ? 'pg_ctl restart' : 'skipped: TOOLGATE_TEST_POSTGRES_RESTART is not set'})`,
      async () => {
        const ledger = freshLedgerName('restart');
        const fleet = Array.from({ length: 3 }, (_, n) => spawnWriter(url, ledger, `w${n}`, 'until-stopped'));
        await Promise.all(fleet.map((writer) => writer.until(() => writer.stored >= 20, '20 appends')));
        execSync(restartCommand!, { stdio: 'ignore', timeout: 120_000 });
        const after = fleet.map((writer) => writer.stored);
        await Promise.all(
          fleet.map((writer, n) =>
            writer.until(() => writer.stored >= after[n]! + 20, '20 appends after the restart'),
          ),
        );
        for (const writer of fleet) writer.stop();
        expect(await Promise.all(fleet.map((writer) => writer.exited))).toEqual([0, 0, 0]);
        const failures = fleet.flatMap((writer) => writer.lines.filter((line) => line.startsWith('failed ')));
        expect(failures.length).toBeGreaterThan(0);
        for (const failure of failures) {
          expect(failure).toMatch(
            /^failed LEDGER_UNAVAILABLE the PostgreSQL ledger postgres:\/\/\S+ \(ledger "restart-[^"]+"\) could not store the append/,
          );
        }
        const counts = fleet.map((writer) => Number(writer.lines.at(-1)!.replace('done ', '')));
        const events = await chainOf(ledger);
        expect(events.length).toBe(counts.reduce((a, b) => a + b, 0)); // a retried id is stored once
        expect(events.map((event) => event.seq)).toEqual([...Array(events.length).keys()]);
        expect(await verifyPostgresLedger(url, { ledger })).toMatchObject({ ok: true, count: events.length });
      },
      300_000,
    );
  },
);
