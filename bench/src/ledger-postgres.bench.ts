/**
 * The ledger on PostgreSQL, for fleets: appends per second with 8 writer processes sharing one
 * PostgresStore ledger, against the lock per append of before, the same appends waiting for no flush
 * (the ceiling) and a bare round trip (the floor), with the WAL syncs, commits and CPU (writers and,
 * when the server is on this machine, its processes) an append; beside them the same 8 writers each
 * on a FileStore of its own (a file takes one writer at a time); and `verifyPostgresLedger` in
 * events per second. Needs a server:
 * TOOLGATE_TEST_POSTGRES_URL, or one started here from Debian's postgresql when it is installed;
 * otherwise the rows are skipped with the reason.
 */
import { type ChildProcess, execSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PostgresStore, verifyPostgresLedger } from '@toolgate/ledger-postgres';
import pg from 'pg';
import { format, quick, report, row } from './report.js';

const here = dirname(fileURLToPath(import.meta.url));
const directory = mkdtempSync(join(tmpdir(), 'toolgate-ledger-postgres-bench-'));
let stopServer = () => {};
process.on('exit', () => {
  stopServer();
  rmSync(directory, { recursive: true, force: true });
});

/** A server to bench against: the test one, or a throwaway cluster; undefined with the reason printed. */
async function server(): Promise<string | undefined> {
  if (process.env.TOOLGATE_TEST_POSTGRES_URL) return process.env.TOOLGATE_TEST_POSTGRES_URL;
  const versions = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql').sort() : [];
  const bin = versions.length ? `/usr/lib/postgresql/${versions.at(-1)}/bin` : undefined;
  if (!bin || !existsSync(`${bin}/initdb`)) {
    console.log(
      'skipped: PostgreSQL rows: TOOLGATE_TEST_POSTGRES_URL is unset and postgresql is not installed (apt-get install postgresql)',
    );
    return undefined;
  }
  const data = join(directory, 'cluster');
  const root = process.getuid?.() === 0;
  const as = (command: string) => (root ? `su postgres -s /bin/sh -c "${command}"` : command);
  if (root) execSync(`mkdir -p ${data} && chown postgres ${directory} ${data}`);
  const port = await freePort();
  execSync(as(`${bin}/initdb -D ${data}/db -A trust -U postgres > ${data}/initdb.log`));
  execSync(
    as(
      `${bin}/pg_ctl -D ${data}/db -o '-p ${port} -k ${data} -c listen_addresses=127.0.0.1' -l ${data}/log -w start`,
    ),
    { stdio: 'ignore' },
  );
  stopServer = () => execSync(as(`${bin}/pg_ctl -D ${data}/db -m immediate stop`), { stdio: 'ignore' });
  return `postgres://postgres@127.0.0.1:${port}/postgres`;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

function lines(child: ChildProcess): { next(): Promise<string> } {
  const queue: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  let buffer = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    for (let newline = buffer.indexOf('\n'); newline >= 0; newline = buffer.indexOf('\n')) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      const waiter = waiting.shift();
      if (waiter) waiter(line);
      else queue.push(line);
    }
  });
  return {
    next: () =>
      new Promise((resolve) => {
        const line = queue.shift();
        if (line !== undefined) resolve(line);
        else waiting.push(resolve);
      }),
  };
}

type Kind = 'postgres' | 'postgres-locked' | 'postgres-round-trip' | 'file';

/**
 * `count` writer processes for `ms` milliseconds, started together: appends per second over all of
 * them, and the writers' CPU time per append. `env` is added to the writers' environment.
 */
async function fleet(
  kind: Kind,
  location: (n: number) => string,
  { ms, inFlight, count, env }: { ms: number; inFlight: number; count: number; env?: NodeJS.ProcessEnv },
) {
  const writers = Array.from({ length: count }, (_, n) => {
    const child = spawn(
      process.execPath,
      [join(here, 'children', 'ledger-writer.mjs'), kind, location(n), `w${n}`, String(ms), String(inFlight)],
      { stdio: ['pipe', 'pipe', 'inherit'], cwd: here, env: { ...process.env, ...env } },
    );
    return { child, out: lines(child) };
  });
  for (const writer of writers)
    if ((await writer.out.next()) !== 'ready') throw new Error('a writer did not start');
  for (const writer of writers) writer.child.stdin!.write('go\n');
  const results = await Promise.all(
    writers.map(async (writer) => (await writer.out.next()).split(' ').map(Number) as [number, number]),
  );
  const appends = results.reduce((sum, [count]) => sum + count, 0);
  const cpuMs = results.reduce((sum, [, cpu]) => sum + cpu, 0);
  return { perSecond: appends / (ms / 1000), appends, cpuPerAppend: cpuMs / appends };
}

/**
 * The CPU time (ms) the server's processes have used so far — the postmaster and its children, and
 * the children it has reaped (the writers' backends end with them) — read from /proc; undefined
 * unless the server runs on this machine and its data directory is readable here.
 */
async function serverCpu(database: pg.Client): Promise<number | undefined> {
  try {
    const { rows } = await database.query<{ setting: string }>(
      "SELECT setting FROM pg_settings WHERE name = 'data_directory'",
    );
    const postmaster = readFileSync(join(rows[0]!.setting, 'postmaster.pid'), 'utf8').split('\n')[0]!;
    const ticks = (pid: string) => {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return { parent: fields[1], used: fields.slice(11, 15).reduce((sum, value) => sum + Number(value), 0) };
    };
    let total = ticks(postmaster).used;
    for (const pid of readdirSync('/proc')) {
      if (!/^\d+$/.test(pid) || pid === postmaster) continue;
      try {
        const child = ticks(pid);
        if (child.parent === postmaster) total += child.used;
      } catch {} // a process that ended while read
    }
    return total * 10; // clock ticks of 10 ms (USER_HZ 100)
  } catch {
    return undefined;
  }
}

/** The server's WAL syncs so far (pg_stat_wal, PostgreSQL 14 on); undefined where it has none. */
async function walSyncs(database: pg.Client): Promise<number | undefined> {
  try {
    const { rows } = await database.query<{ syncs: string }>('SELECT wal_sync AS syncs FROM pg_stat_wal');
    return Number(rows[0]!.syncs);
  } catch {
    return undefined;
  }
}

const url = await server();
if (url) {
  const ms = quick ? 2000 : 5000;
  const rounds = quick ? 1 : 3;
  const noFlush = { PGOPTIONS: '-c synchronous_commit=off' };
  const sides: {
    name: string;
    kind: Kind;
    inFlight: number;
    count: number;
    env?: NodeJS.ProcessEnv;
  }[] = [
    {
      name: 'before: lock per append, 8 writers, 1 in flight each',
      kind: 'postgres-locked',
      inFlight: 1,
      count: 8,
    },
    {
      name: 'PostgresStore (group commit), 8 writers, 1 in flight each',
      kind: 'postgres',
      inFlight: 1,
      count: 8,
    },
    {
      name: 'ceiling: PostgresStore with no flush wait (synchronous_commit off), 8 writers, 1 in flight each',
      kind: 'postgres',
      inFlight: 1,
      count: 8,
      env: noFlush,
    },
    {
      name: 'floor of a round trip: SELECT 1 an append, nothing stored, 8 writers, 1 in flight each',
      kind: 'postgres-round-trip',
      inFlight: 1,
      count: 8,
    },
    {
      name: 'before: lock per append, 16 writers, 1 in flight each',
      kind: 'postgres-locked',
      inFlight: 1,
      count: 16,
    },
    {
      name: 'PostgresStore (group commit), 16 writers, 1 in flight each',
      kind: 'postgres',
      inFlight: 1,
      count: 16,
    },
    {
      name: 'FileStore (batch), 8 writers on a file each, 1 in flight each',
      kind: 'file',
      inFlight: 1,
      count: 8,
    },
    {
      name: 'PostgresStore (group commit), 8 writers, 16 in flight each',
      kind: 'postgres',
      inFlight: 16,
      count: 8,
    },
    {
      name: 'FileStore (batch), 8 writers on a file each, 16 in flight each',
      kind: 'file',
      inFlight: 16,
      count: 8,
    },
  ];
  const database = new pg.Client({ connectionString: url });
  await database.connect();
  const perSide = sides.map(() => [] as number[]);
  // Per side, over all rounds: records, commits that sealed them, WAL syncs, writers' CPU.
  const tally = sides.map(() => ({
    records: 0,
    seals: 0,
    syncs: 0,
    cpu: 0,
    serverCpu: 0,
    syncsKnown: true,
    serverCpuKnown: true,
  }));
  for (let round = 0; round < rounds; round++) {
    for (const [index, side] of sides.entries()) {
      const ledger = `bench-${process.pid}-${round}-${index}`;
      const shared = `${url}${url.includes('?') ? '&' : '?'}ledger=${ledger}`;
      const stored = side.kind === 'postgres' || side.kind === 'postgres-locked';
      if (side.kind === 'postgres-locked') await (await PostgresStore.open(shared)).close(); // creates it
      const location = (n: number) =>
        side.kind === 'file' ? join(directory, `${ledger}-${n}.jsonl`) : shared;
      const syncsBefore = await walSyncs(database);
      const serverBefore = await serverCpu(database);
      const result = await fleet(side.kind, location, {
        ms,
        inFlight: side.inFlight,
        count: side.count,
        env: side.env,
      });
      const syncsAfter = await walSyncs(database);
      const serverAfter = await serverCpu(database);
      perSide[index]!.push(result.perSecond);
      const counts = tally[index]!;
      counts.cpu += result.cpuPerAppend * result.appends;
      counts.records += result.appends;
      if (syncsBefore === undefined || syncsAfter === undefined) counts.syncsKnown = false;
      else counts.syncs += syncsAfter - syncsBefore;
      if (serverBefore === undefined || serverAfter === undefined) counts.serverCpuKnown = false;
      else counts.serverCpu += serverAfter - serverBefore;
      if (stored) {
        const verified = await verifyPostgresLedger(url, { ledger });
        if (!verified.ok || verified.count !== result.appends)
          throw new Error(`the shared ledger failed verification: ${JSON.stringify(verified)}`);
        // The records one commit sealed share its xmin.
        const { rows } = await database.query<{ seals: number }>(
          'SELECT count(DISTINCT xmin::text)::int AS seals FROM toolgate_ledger_events WHERE ledger = $1',
          [ledger],
        );
        counts.seals += rows[0]!.seals;
      }
    }
  }
  await database.end();
  const rows = sides.map((side, index) => row(side.name, perSide[index]!, 'appends/s'));
  const cpuOf = (index: number) => {
    const counts = tally[index]!;
    const server = counts.serverCpuKnown
      ? `, the server ${format(counts.serverCpu / counts.records)} ms`
      : '';
    return `CPU an append: the writers ${format(counts.cpu / counts.records)} ms${server}`;
  };
  for (const [index, side] of sides.entries()) {
    const counts = tally[index]!;
    const syncs = counts.syncsKnown ? `${format(counts.syncs / counts.records)} WAL syncs an append, ` : '';
    const seals = counts.seals > 0 ? `${format(counts.records / counts.seals)} appends a commit, ` : '';
    console.log(`  ${side.name}: ${syncs}${seals}${cpuOf(index)}`);
  }
  const ratio = (after: number, before: number) =>
    perSide[after]!.map((value, round) => value / perSide[before]![round]!).sort((a, b) => a - b);
  const eight = ratio(1, 0);
  const ceiling = ratio(2, 0);
  const ofCeiling = ratio(1, 2);
  const sixteen = ratio(5, 4);
  const median = (values: number[]) => values[Math.floor(values.length / 2)]!;
  const listed = (values: number[], digits = 1) => values.map((value) => value.toFixed(digits)).join(', ');
  const syncsOf = (index: number) => {
    const counts = tally[index]!;
    return counts.syncsKnown ? format(counts.syncs / counts.records) : 'unknown';
  };
  report({
    id: 'ledger-postgres-appends',
    title: 'ledger: writer processes on one PostgreSQL ledger, group commit against a lock per append',
    what:
      `8 and 16 writer processes append for ${ms} ms each, awaiting each append (1 in flight) or keeping 16 in ` +
      'flight, to one ledger they share (one chain; synchronous_commit on): before, one transaction an append ' +
      "holding the head row's lock through its commit; PostgresStore, group commit (the lock is held only while " +
      'the seal runs; its commit does not wait for the flush, a second transaction a round trip does, and the ' +
      'writers waiting at once share one flush). The ceiling is the same PostgresStore appends with ' +
      'synchronous_commit off (no flush waited for at all), which no group commit can pass on the machine; the ' +
      'floor of a round trip is a SELECT 1 in place of each append. Beside them, 8 writers on a FileStore each ' +
      '(a file has one writer at a time). Appends per second over all writers; each shared ledger verifies after ' +
      'its round. Ratios are taken within each round (same load).',
    rows,
    figure:
      `group commit ${median(eight).toFixed(1)}× the lock per append with 8 writers (rounds: ${listed(eight)}), ` +
      `${median(ofCeiling).toFixed(2)} of the ceiling (${listed(ofCeiling, 2)}), which is itself ` +
      `${median(ceiling).toFixed(1)}× the lock per append (${listed(ceiling)}); ${median(sixteen).toFixed(1)}× with ` +
      `16 writers (${listed(sixteen)}). WAL syncs an append: ${syncsOf(1)} (lock per append ${syncsOf(0)}); ` +
      `appends a commit: ${format(tally[1]!.records / Math.max(1, tally[1]!.seals))}; ${cpuOf(1)} ` +
      `(ceiling: ${cpuOf(2).replace('CPU an append: ', '')}; a round trip: ${cpuOf(3).replace('CPU an append: ', '')})`,
    target: '≥ 5× the lock per append, 8 writers with 1 in flight each',
    met: median(eight) >= 5,
  });

  const events = quick ? 20_000 : 200_000;
  const ledger = `bench-verify-${process.pid}`;
  const store = await PostgresStore.open(url, { ledger });
  const payload = { callId: 'call', parameters: { seed: 'moss on the north stones', depth: 3 } };
  for (let seq = 0; seq < events; seq += 500) {
    await Promise.all(
      Array.from({ length: Math.min(500, events - seq) }, (_, n) =>
        store.append({
          runId: 'bench',
          kind: ['tool.called', 'policy.decided', 'tool.returned'][(seq + n) % 3]!,
          actor: 'teller',
          payload,
        }),
      ),
    );
  }
  await store.close();
  const perRound: number[] = [];
  for (let round = 0; round < (quick ? 2 : 3); round++) {
    const started = performance.now();
    const result = await verifyPostgresLedger(url, { ledger });
    if (!result.ok || result.count !== events) throw new Error(`verify failed: ${JSON.stringify(result)}`);
    perRound.push(events / ((performance.now() - started) / 1000));
  }
  const verifyRow = row(`verifyPostgresLedger, ${format(events)} events`, perRound, 'events/s');
  report({
    id: 'ledger-postgres-verify',
    title: 'ledger: verify on PostgreSQL',
    what:
      `\`verifyPostgresLedger\` over a ${format(events)}-event ledger: a server-side cursor (FETCH 10,000) in one ` +
      'read-only snapshot; each record checked for its chain, canonical form, hash and indexed columns, then the head row.',
    rows: [verifyRow],
    figure: `${format(verifyRow.median)} events/s`,
    target: '',
    met: null,
  });
}
