import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type LedgerEvent, readAll } from '@toolgate/ledger';
import { PostgresStore, verifyPostgresLedger } from '@toolgate/ledger-postgres';
import {
  freshLedgerUrl,
  postgresSkipReason,
  postgresUrl,
  requirePostgresInContinuousIntegration,
} from '@toolgate/ledger-postgres/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replayGatewayLedger } from './replay.js';
import {
  binPath,
  cliPath,
  configText,
  eventually,
  type StdioGateway,
  scratch,
  startStdioGateway,
  textOf,
} from './testing-fixtures/gateway.js';

const withLedger = (workspace: string, ledger: string) =>
  configText(workspace).replace('ledger: ./gateway.ledger.jsonl', `ledger: ${JSON.stringify(ledger)}`);

/** Runs the gateway command until it exits (it must: its ledger cannot open); its exit code and stderr. */
async function failedStart(args: string[]): Promise<{ code: number; stderr: string }> {
  const running = promisify(execFile)(process.execPath, args, { timeout: 60_000 });
  running.child.stdin?.end(); // no client: a failed stdio start does not wait for one's initialize
  return running.then(
    ({ stderr }) => ({ code: 0, stderr }),
    (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
  );
}

describe('toolgate-gateway with a postgres:// ledger, before any server', { timeout: 120_000 }, () => {
  const place = scratch();
  afterAll(() => place.remove());

  it('names an unreachable ledger by host and ledger, never with its password', async () => {
    const config = join(place.dir, 'unreachable.yaml');
    writeFileSync(
      config,
      withLedger(place.workspace, 'postgres://gate:hunter2@127.0.0.1:1/audit?ledger=desk'),
    );
    const { code, stderr } = await failedStart([cliPath, '--config', config]);
    expect(code).toBe(1);
    expect(stderr).toContain('postgres://127.0.0.1:1/audit (ledger "desk")');
    expect(stderr).not.toContain('hunter2');
  });
});

requirePostgresInContinuousIntegration(it);

describe.skipIf(postgresUrl === undefined)(
  `toolgate-gateway over stdio with a postgres:// ledger (${postgresUrl ? 'on a real server' : postgresSkipReason})`,
  { timeout: 120_000 },
  () => {
    const place = scratch();
    const config = join(place.dir, 'gateway.yaml');
    const ledger = freshLedgerUrl(postgresUrl ?? 'postgres://unset', 'gateway');
    const otherLedger = freshLedgerUrl(postgresUrl ?? 'postgres://unset', 'gateway-other');
    let gateway: StdioGateway;
    beforeAll(async () => {
      writeFileSync(config, withLedger(place.workspace, ledger));
      gateway = await startStdioGateway(config);
    }, 120_000);
    afterAll(async () => {
      await gateway?.close();
      if (!process.env.KEEP_SCRATCH) place.remove();
    });

    it('records an allowed call and a refused one to PostgreSQL', async () => {
      const allowed = await gateway.client.callTool({
        name: 'fs__read_text_file',
        arguments: { path: join(place.workspace, 'hello.txt') },
      });
      expect(allowed.isError).toBeFalsy();
      expect(textOf(allowed)).toBe('hello from the workspace\n');
      const refused = await gateway.client.callTool({
        name: 'fs__write_file',
        arguments: { path: join(place.workspace, 'x'), content: 'x' },
      });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/^CAPABILITY_VIOLATION: .*fs__write_file/);
    });

    it('refuses a SIGHUP that changes the ledger, keeps recording to the old one', async () => {
      writeFileSync(config, withLedger(place.workspace, otherLedger));
      process.kill(gateway.transport.pid!, 'SIGHUP');
      await eventually(async () => /reload refused.*the ledger changed/.test(gateway.stderr()));
      const after = await gateway.client.callTool({
        name: 'mine__note',
        arguments: { text: 'after the reload' },
      });
      expect(textOf(after)).toBe('note: after the reload');
      writeFileSync(config, withLedger(place.workspace, ledger));
    });

    it('approves a changed tool from the change recorded in PostgreSQL', async () => {
      await gateway.client.callTool({ name: 'mine__rewrite', arguments: {} });
      await eventually(
        async () => !(await gateway.client.listTools()).tools.some((tool) => tool.name === 'mine__note'),
      );
      const approved = execFileSync(process.execPath, [
        cliPath,
        'approve',
        'mine__note',
        '--config',
        config,
        '--pid',
        String(gateway.transport.pid),
      ]).toString();
      expect(approved).toMatch(/^approved mine__note \(fingerprint sha256:[0-9a-f]{64}\)/);
      await eventually(async () =>
        (await gateway.client.listTools()).tools.some((tool) => tool.name === 'mine__note'),
      );
      expect(
        textOf(await gateway.client.callTool({ name: 'mine__note', arguments: { text: 'approved' } })),
      ).toBe('note: approved');
    });

    it('says which ledger holds no such change, without its password', () => {
      const ledgerWithPassword = ledger.replace('postgres://postgres@', 'postgres://postgres:hunter2@');
      const other = join(place.dir, 'password.yaml');
      writeFileSync(other, withLedger(place.workspace, ledgerWithPassword));
      const result = spawnSync(process.execPath, [cliPath, 'approve', 'mine__nothing', '--config', other]);
      expect(result.status).not.toBe(0);
      expect(result.stderr.toString()).toMatch(/records no change of a tool named "mine__nothing"/);
      expect(result.stderr.toString()).not.toContain('hunter2');
    });

    it('leaves a ledger toolgate-ledger verifies on its URL, holding the records, that replays to the same chain', async () => {
      await gateway.close();
      await eventually(async () => !alive(gateway.transport.pid!));
      const verified = execFileSync(binPath('toolgate-ledger'), ['verify', ledger]).toString();
      expect(verified).toMatch(/ok/i);
      const events = await eventsOf(ledger);
      const kinds = events.map((event) => event.kind);
      expect(kinds).toContain('gateway.started');
      expect(kinds).toContain('client.connected');
      const returned = events.filter((event) => event.kind === 'tool.returned').map((event) => event.payload);
      expect(returned).toContainEqual(expect.objectContaining({ tool: 'fs__read_text_file' }));
      expect(returned).toContainEqual(
        expect.objectContaining({
          tool: 'fs__write_file',
          error: expect.objectContaining({ code: 'CAPABILITY_VIOLATION' }),
        }),
      );
      expect(returned).toContainEqual(expect.objectContaining({ tool: 'mine__note' }));
      // the refused reload never opened (nor created) the other ledger
      await expect(PostgresStore.open(otherLedger, { create: false })).rejects.toMatchObject({
        code: 'LEDGER_UNAVAILABLE',
      });
      const head = events.at(-1)!.hash;
      const copy = join(place.dir, 'replayed.jsonl');
      expect(await replayGatewayLedger(ledger, copy)).toBe(
        kinds.filter((kind) => kind === 'tool.called').length,
      );
      const lines = readFileSync(copy, 'utf8').trimEnd().split('\n');
      expect(lines.length).toBe(events.length);
      expect(JSON.parse(lines.at(-1)!).hash).toBe(head);
      const replayedInto = freshLedgerUrl(postgresUrl!, 'gateway-replayed');
      await replayGatewayLedger(ledger, replayedInto);
      expect(await verifyPostgresLedger(replayedInto)).toEqual({
        ok: true,
        count: events.length,
        last: { seq: events.length - 1, hash: head },
      });
    });
  },
);

async function eventsOf(url: string): Promise<LedgerEvent[]> {
  const store = await PostgresStore.open(url, { create: false });
  try {
    return await readAll(store.read());
  } finally {
    await store.close();
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
