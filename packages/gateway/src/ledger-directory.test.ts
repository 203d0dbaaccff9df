import { spawnSync } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { verifyLedgerFile } from '@toolgate/ledger';
import { afterAll, describe, expect, it } from 'vitest';
import {
  changingServer,
  cliPath,
  connectStdio,
  scratch,
  sdkClient,
  textOf,
} from './testing-fixtures/gateway.js';

const configWith = (ledger: string) => `servers:
  mine: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(changingServer)}], prefix: mine }
clients:
  desktop: { tools: ["mine__pid"] }
stdio: desktop
ledger: ${ledger}
`;

describe('many gateway processes on one config', { timeout: 180_000 }, () => {
  const place = scratch();
  const clients: Client[] = [];
  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    place.remove();
  });

  it('serves three stdio gateways at once from a ledger directory, each writing a chain that verifies', async () => {
    const config = join(place.dir, 'many.yaml');
    writeFileSync(config, configWith('./ledgers/'));
    const started = await Promise.all(
      [0, 1, 2].map(async () => {
        const client = sdkClient(() => 'none');
        clients.push(client);
        await connectStdio(client, config);
        return client;
      }),
    );
    const pids = await Promise.all(
      started.map(async (client) => textOf(await client.callTool({ name: 'mine__pid', arguments: {} }))),
    );
    expect(new Set(pids).size).toBe(3); // each gateway its own upstream
    await Promise.all(started.map((client) => client.close()));
    const files = readdirSync(join(place.dir, 'ledgers')).filter((name) => name.endsWith('.jsonl'));
    expect(files).toHaveLength(3);
    for (const file of files) {
      const verified = await verifyLedgerFile(join(place.dir, 'ledgers', file));
      expect(verified, file).toMatchObject({ ok: true });
    }
  });

  it('refuses a second gateway on one ledger file with the fix: a ledger directory', async () => {
    const config = join(place.dir, 'one.yaml');
    writeFileSync(config, configWith('./one.ledger.jsonl'));
    const first = sdkClient(() => 'none');
    clients.push(first);
    await connectStdio(first, config);
    // the second gateway, as a second client would start it, while the first holds the file
    const run = spawnSync(process.execPath, [cliPath, '--config', config], {
      input: '',
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toMatch(
      /already open for writing by process \d+.*make the ledger a directory — ledger: .*one\.ledger\/ —/,
    );

    // a real client sees the reason and the fix as its initialize's error, not "Connection closed"
    const second = sdkClient(() => 'none');
    const refused = await connectStdio(second, config).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(refused?.message).toMatch(
      /toolgate-gateway could not start: .*already open for writing by process \d+.*make the ledger a directory — ledger: .*one\.ledger\/ —/,
    );
    expect(refused?.message).not.toMatch(/Connection closed/);
  });
});
