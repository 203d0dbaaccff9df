import { steppingClock } from '@toolgate/ledger';
import { temporaryFiles, writeSampleLedger } from '@toolgate/ledger/testing';
import { PostgresStore } from '@toolgate/ledger-postgres';
import {
  freshLedgerName,
  postgresSkipReason,
  postgresUrl,
  requirePostgresInContinuousIntegration,
} from '@toolgate/ledger-postgres/testing';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from './main.js';

requirePostgresInContinuousIntegration(it);
const file = temporaryFiles();
const database = new pg.Pool({ connectionString: postgresUrl ?? 'postgres://unset', max: 1 });
afterAll(() => database.end());

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: {
      stdout: { write: (text: string) => out.push(text), isTTY: false },
      stderr: { write: (text: string) => err.push(text) },
      env: {},
    },
    out: () => out.join(''),
    err: () => err.join(''),
  };
}

/** A ledger of three runs in the database; returns its URL. */
async function seed(): Promise<{ url: string; ledger: string }> {
  const ledger = freshLedgerName('cli');
  const url = `${postgresUrl}${postgresUrl!.includes('?') ? '&' : '?'}ledger=${ledger}`;
  const store = await PostgresStore.open(url, { clock: steppingClock('2026-05-01T00:00:00.000Z', 1000) });
  for (const [run, kind] of [
    ['a', 'run.started'],
    ['b', 'run.started'],
    ['a', 'tool.called'],
    ['a', 'run.ended'],
  ] as const)
    await store.append({ runId: run, kind, actor: 'teller', payload: { run } });
  await store.close();
  return { url, ledger };
}

describe('toolgate-ledger runs FILE', () => {
  it('lists the runs of a ledger file with their first and last seq and time', async () => {
    const path = file('sample.jsonl');
    await writeSampleLedger(path);
    const output = io();
    expect(await main(['runs', path, '--json'], output.io)).toBe(0);
    expect(
      output
        .out()
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual([
      {
        runId: 'a',
        firstSeq: 0,
        lastSeq: 2,
        firstAt: '2026-01-01T00:00:00.000Z',
        lastAt: '2026-01-01T00:00:00.002Z',
        count: 3,
      },
      {
        runId: 'b',
        firstSeq: 3,
        lastSeq: 3,
        firstAt: '2026-01-01T00:00:00.003Z',
        lastAt: '2026-01-01T00:00:00.003Z',
        count: 1,
      },
    ]);
  });
});

describe.skipIf(postgresUrl === undefined)(
  `toolgate-ledger on postgres:// (${postgresUrl ? 'a real server' : postgresSkipReason})`,
  () => {
    it('verifies, prints the head, lists the runs and shows the events of a PostgreSQL ledger', async () => {
      const { url, ledger } = await seed();
      const verify = io();
      expect(await main(['verify', url], verify.io)).toBe(0);
      expect(verify.out()).toMatch(
        new RegExp(`\\(ledger "${ledger}"\\): ok, 4 records verified \\(last seq 3, hash [0-9a-f]{64}\\)`),
      );
      const head = io();
      expect(await main(['head', url], head.io)).toBe(0);
      const [seq, hash] = head.out().trim().split(' ');
      expect(seq).toBe('3');
      expect(await main(['verify', url, '--head', hash!], io().io)).toBe(0);
      const runs = io();
      expect(await main(['runs', url], runs.io)).toBe(0);
      expect(runs.out()).toBe(
        'a\tseq 0..3\t3 events\t2026-05-01T00:00:00.000Z .. 2026-05-01T00:00:03.000Z\n' +
          'b\tseq 1..1\t1 events\t2026-05-01T00:00:01.000Z .. 2026-05-01T00:00:01.000Z\n',
      );
      const show = io();
      expect(await main(['show', url, '--run', 'a', '--kind', 'tool.called', '--json'], show.io)).toBe(0);
      expect(
        show
          .out()
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line).seq),
      ).toEqual([2]);
    });

    it.each([
      [
        'an edited record',
        'UPDATE toolgate_ledger_events SET line = replace(line, \'"run":"b"\', \'"run":"c"\') WHERE ledger = $1 AND seq = 1',
        /bad record at seq 1: .*canonical|hash/,
      ],
      [
        'a deleted record',
        'DELETE FROM toolgate_ledger_events WHERE ledger = $1 AND seq = 2',
        /bad record at seq 2: its seq is 3, expected 2/,
      ],
      [
        'a cut tail',
        'DELETE FROM toolgate_ledger_events WHERE ledger = $1 AND seq = 3',
        /bad record at seq 3: the head row says .* records were cut from its end/,
      ],
      [
        'an edited run column',
        "UPDATE toolgate_ledger_events SET run_id = 'b' WHERE ledger = $1 AND seq = 0",
        /bad record at seq 0: .*column disagrees/,
      ],
    ])(
      'names the first bad record of a PostgreSQL ledger with %s (exit 1)',
      async (_what, tamper, reason) => {
        const { url, ledger } = await seed();
        await database.query(tamper, [ledger]);
        const verify = io();
        expect(await main(['verify', url], verify.io)).toBe(1);
        expect(verify.err()).toMatch(reason);
      },
    );

    it('refuses a ledger that does not exist (exit 3) and never prints the password', async () => {
      const base = new URL(postgresUrl!);
      base.password = 'hunter2';
      base.searchParams.set('ledger', freshLedgerName('absent'));
      const verify = io();
      expect(await main(['verify', base.toString()], verify.io)).toBe(3);
      expect(verify.err()).toContain('there is no such ledger');
      expect(verify.err()).not.toContain('hunter2');
    });
  },
);
