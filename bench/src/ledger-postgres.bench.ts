/**
 * The ledger on PostgreSQL, for fleets: appends per second with 8 writer processes sharing one
 * PostgresStore ledger, beside the same 8 writers each on a FileStore of its own (a file takes one
 * writer at a time); and `verifyPostgresLedger` in events per second. Needs a server:
 * TOOLGATE_TEST_POSTGRES_URL, or one started here from Debian's postgresql when it is installed;
 * otherwise the rows are skipped with the reason.
 */
import { type ChildProcess, execSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PostgresStore, verifyPostgresLedger } from '@toolgate/ledger-postgres';
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

/** `count` writer processes for `ms` milliseconds, started together; appends per second over all of them. */
async function fleet(
  kind: 'postgres' | 'postgres-locked' | 'file',
  location: (n: number) => string,
  { ms, inFlight, count }: { ms: number; inFlight: number; count: number },
) {
  const writers = Array.from({ length: count }, (_, n) => {
    const child = spawn(
      process.execPath,
      [join(here, 'children', 'ledger-writer.mjs'), kind, location(n), `w${n}`, String(ms), String(inFlight)],
      { stdio: ['pipe', 'pipe', 'inherit'], cwd: here },
    );
    return { child, out: lines(child) };
  });
  for (const writer of writers)
    if ((await writer.out.next()) !== 'ready') throw new Error('a writer did not start');
  for (const writer of writers) writer.child.stdin!.write('go\n');
  const counts = await Promise.all(writers.map(async (writer) => Number(await writer.out.next())));
  return counts.reduce((sum, count) => sum + count, 0) / (ms / 1000);
}

const url = await server();
if (url) {
  const ms = quick ? 2000 : 5000;
  const rounds = quick ? 1 : 3;
  const sides = [
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
  ] as const;
  const perSide = sides.map(() => [] as number[]);
  for (let round = 0; round < rounds; round++) {
    for (const [index, side] of sides.entries()) {
      const ledger = `bench-${process.pid}-${round}-${index}`;
      const shared = `${url}${url.includes('?') ? '&' : '?'}ledger=${ledger}`;
      if (side.kind === 'postgres-locked') await (await PostgresStore.open(shared)).close(); // creates it
      const location = (n: number) =>
        side.kind === 'file' ? join(directory, `${ledger}-${n}.jsonl`) : shared;
      perSide[index]!.push(
        await fleet(side.kind, location, { ms, inFlight: side.inFlight, count: side.count }),
      );
      if (side.kind !== 'file') {
        const verified = await verifyPostgresLedger(url, { ledger });
        if (!verified.ok)
          throw new Error(`the shared ledger failed verification: ${JSON.stringify(verified)}`);
      }
    }
  }
  const rows = sides.map((side, index) => row(side.name, perSide[index]!, 'appends/s'));
  const ratio = (after: number, before: number) =>
    perSide[after]!.map((value, round) => value / perSide[before]![round]!).sort((a, b) => a - b);
  const eight = ratio(1, 0);
  const sixteen = ratio(3, 2);
  const median = (values: number[]) => values[Math.floor(values.length / 2)]!;
  report({
    id: 'ledger-postgres-appends',
    title: 'ledger: writer processes on one PostgreSQL ledger, group commit against a lock per append',
    what:
      `8 and 16 writer processes append for ${ms} ms each, awaiting each append (1 in flight) or keeping 16 in ` +
      'flight, to one ledger they share (one chain; synchronous_commit on): before, one transaction an append ' +
      "holding the head row's lock through its commit; PostgresStore, group commit (each writer's drafts wait in " +
      'an unlogged table, the lock holder seals them all in one commit). Beside them, 8 writers on a FileStore ' +
      'each (a file has one writer at a time). Appends per second over all writers; each shared ledger verifies ' +
      'after its round. The ratio is taken within each round (same load).',
    rows,
    figure:
      `group commit ${median(eight).toFixed(1)}× the lock per append with 8 writers (rounds: ${eight.map((value) => value.toFixed(1)).join(', ')}), ` +
      `${median(sixteen).toFixed(1)}× with 16 (${sixteen.map((value) => value.toFixed(1)).join(', ')})`,
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
