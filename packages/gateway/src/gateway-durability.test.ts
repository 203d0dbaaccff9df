import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FileStore, verifyLedgerFile } from '@toolgate/ledger';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config-load.js';
import { Gateway } from './gateway.js';
import { changingServer, scratch } from './testing-fixtures/gateway.js';

const configWith = (durability: string) => `servers:
  mine: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(changingServer)}], prefix: mine }
clients:
  desktop: { tools: ["mine__*"] }
stdio: desktop
ledger: ./${durability}.ledger.jsonl
durability: ${durability}
`;

describe("the config's durability: what a call's records wait for", { timeout: 120_000 }, () => {
  const place = scratch();
  afterAll(() => place.remove());

  /** The fsyncs each of three calls paid, and the ledger's verification after. */
  async function fsyncsPerCall(durability: string) {
    const path = join(place.dir, `${durability}.yaml`);
    writeFileSync(path, configWith(durability));
    const gateway = await Gateway.start(await loadConfig(path), { log: () => undefined });
    const store = gateway.store as FileStore;
    const counts: number[] = [];
    try {
      expect(store).toBeInstanceOf(FileStore);
      for (let call = 0; call < 3; call += 1) {
        const before = store.fsyncs;
        const result = await gateway.callTool({ client: 'desktop', tool: 'mine__pid', parameters: {} });
        expect(result).toMatchObject({ isError: false });
        counts.push(store.fsyncs - before);
      }
    } finally {
      await gateway.close();
    }
    return {
      durableBefore: gateway.recorder.durableBefore,
      counts,
      verified: await verifyLedgerFile(store.path),
    };
  }

  it("batch (the default) syncs a call's records as a unit before its result: one fsync a call", async () => {
    const { durableBefore, counts, verified } = await fsyncsPerCall('batch');
    expect(durableBefore).toBe('result');
    expect(counts).toEqual([1, 1, 1]);
    expect(verified.ok).toBe(true);
  });

  it('always keeps each effect behind a synced record: tool.called and policy.decided, then tool.returned', async () => {
    const { durableBefore, counts, verified } = await fsyncsPerCall('always');
    expect(durableBefore).toBe('dispatch');
    expect(counts).toEqual([2, 2, 2]);
    expect(verified.ok).toBe(true);
  });
});
