/// <reference lib="dom" />
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { FileStore } from '@toolgate/ledger';
import { temporaryFiles, writeSampleLedger } from '@toolgate/ledger/testing';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../cli/main.js';
import {
  chromiumFlags,
  chromiumPath,
  requirePageBuilt,
  skipBrowser,
} from '../test-support/viewer-browser.js';

const file = temporaryFiles();
let browser: Browser;

beforeAll(async () => {
  requirePageBuilt();
  if (!skipBrowser) browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumFlags });
});
afterAll(async () => {
  await browser?.close();
});

async function run(...argv: string[]) {
  const err: string[] = [];
  const code = await main(argv, {
    stdout: { write: () => true },
    stderr: { write: (text: string) => err.push(text) },
    env: {},
  });
  return { code, err: err.join('') };
}

describe.skipIf(skipBrowser)(
  'the exported page shows the checkpoint status (toolgate-ledger export --checkpoint)',
  () => {
    it('says which checkpoint holds, signed by whom over how many records, and which does not', async () => {
      const ledger = file('sample.jsonl');
      await writeSampleLedger(ledger);
      const log = file('log');
      await run('keygen', 'example.com/agents', '--out', log);
      const good = file('good.checkpoint');
      expect((await run('checkpoint', ledger, '--key', `${log}.key`, '--out', good)).code).toBe(0);
      // A checkpoint signed over more records than the ledger holds now: its tail was cut.
      const longer = file('longer.jsonl');
      writeFileSync(longer, readFileSync(ledger, 'utf8'));
      const store = await FileStore.open(longer);
      await store.append({ runId: 'run-9', kind: 'run.started', actor: 'system' });
      await store.close();
      const cut = file('cut.checkpoint');
      expect((await run('checkpoint', longer, '--key', `${log}.key`, '--out', cut)).code).toBe(0);
      // And one edited after it was signed.
      const forged = file('forged.checkpoint');
      writeFileSync(
        forged,
        readFileSync(good, 'utf8').replace(/\n(\d+)\n/, (_all, size: string) => `\n${Number(size) + 1}\n`),
      );
      const out = file('page.html');
      const exported = await run(
        'export',
        ledger,
        '--html',
        out,
        '--checkpoint',
        good,
        '--checkpoint',
        cut,
        '--checkpoint',
        forged,
        '--pub',
        `${log}.pub`,
      );
      expect(exported.code).toBe(0);
      const page = await browser.newPage();
      await page.goto(pathToFileURL(out).href);
      const lines = page.getByTestId('checkpoint');
      await expect.poll(() => lines.count(), { timeout: 30_000 }).toBe(3);
      expect(await lines.nth(0).textContent()).toMatch(
        /^✔ checkpoint \S+good\.checkpoint \(\d+ records, signed by "example\.com\/agents"\) holds$/,
      );
      expect(await lines.nth(0).getAttribute('class')).toContain('status-ok');
      expect(await lines.nth(1).textContent()).toMatch(
        /^✘ the ledger holds (\d+) records, but checkpoint \S+cut\.checkpoint \(\d+ records, signed by "example\.com\/agents"\) committed to \d+: records were cut from its tail/,
      );
      expect(await lines.nth(1).getAttribute('class')).toContain('status-bad');
      expect(await lines.nth(2).textContent()).toMatch(
        /^✘ \S+forged\.checkpoint: the signature by "example\.com\/agents" does not verify/,
      );
      await page.close();
    }, 120_000);
  },
);
