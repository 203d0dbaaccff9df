import { readFileSync, writeFileSync } from 'node:fs';
import { temporaryFiles, writeViewerLedger } from '@toolgate/ledger/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LedgerIndex } from './ledger-index.js';
import { loadLedger } from './load.js';
import { embeddedSource } from './page/sources.js';
import { rowsWindow } from './rows-window.js';
import type { WindowQuery } from './snapshot.js';

const file = temporaryFiles();
let index: LedgerIndex | undefined;
afterEach(() => {
  index?.close();
  index = undefined;
});

async function verifiedIndex(path: string, options = {}): Promise<LedgerIndex> {
  const opened = LedgerIndex.open(path, options);
  index = opened;
  await vi.waitFor(() => expect(opened.state().status.state).toBe('verified'), { timeout: 20_000 });
  return opened;
}

const none = { agent: '', tool: '', kind: '', outcome: '', search: '' };

describe('windows of rows from the server', () => {
  it('are the windows the page computes from the whole ledger, for every filter', async () => {
    const path = file('viewer.jsonl');
    await writeViewerLedger(path);
    // a checkpoint every 4 records: windows are read back across many spans
    const served = await verifiedIndex(path, { checkpointEvery: 4 });
    const embedded = embeddedSource(await loadLedger(path));
    const queries: WindowQuery[] = [
      { filters: none, from: 0, limit: 200 },
      { filters: { ...none, run: '' }, from: 0, limit: 200 },
      { filters: { ...none, run: 'grove-1' }, from: 3, limit: 5 },
      { filters: { ...none, run: 'grove-1', agent: 'critic' }, from: 0, limit: 200 },
      { filters: { ...none, run: '', outcome: 'refused' }, from: 0, limit: 200 },
      { filters: { ...none, run: '', outcome: 'failed' }, from: 1, limit: 2 },
      { filters: { ...none, run: '', kind: 'tool call', tool: 'oracle' }, from: 0, limit: 200 },
      { filters: { ...none, run: '', search: ' ONERROR ' }, from: 0, limit: 200 },
      { filters: { ...none, run: '', search: 'moss' }, from: 0, limit: 200 },
      { filters: { ...none, run: 'nobody' }, from: 0, limit: 200 },
    ];
    for (const query of queries) {
      const [fromServer, fromPage] = await Promise.all([rowsWindow(served, query), embedded(query)]);
      expect(fromServer.total, JSON.stringify(query)).toBeGreaterThanOrEqual(0);
      expect({ ...fromServer, state: undefined }, JSON.stringify(query)).toEqual({
        ...fromPage,
        state: undefined,
      });
    }
  });

  it('refuses to show records edited after they were verified (409 material, never a verified row)', async () => {
    const path = file('viewer.jsonl');
    await writeViewerLedger(path);
    const served = await verifiedIndex(path);
    const text = readFileSync(path, 'utf8');
    // same length, so every offset still lands on a line start
    writeFileSync(path, text.replace('the stone remembers moss', 'the stone remembers mass'));
    await expect(
      rowsWindow(served, { filters: { ...none, run: 'grove-1' }, from: 0, limit: 200 }),
    ).rejects.toThrow(/changed after it was verified.*reload the page/);
  });
});
