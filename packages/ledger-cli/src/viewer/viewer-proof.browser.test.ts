/// <reference lib="dom" />
import type { ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { MemoryStore, steppingClock } from '@toolgate/ledger';
import { temporaryFiles } from '@toolgate/ledger/testing';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../cli/main.js';
import {
  chromiumFlags,
  chromiumPath,
  requirePageBuilt,
  serveChild,
  skipBrowser,
} from '../test-support/viewer-browser.js';

const file = temporaryFiles();
const bound = { timeout: 30_000 };
let browser: Browser;
const children: ChildProcess[] = [];

beforeAll(async () => {
  requirePageBuilt();
  if (!skipBrowser) browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumFlags });
});
afterAll(async () => {
  for (const child of children) child.kill('SIGTERM');
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

/** A ledger of one call whose output is `omen`: its chain verifies whatever the omen. */
async function writeLedger(path: string, omen: string): Promise<void> {
  const store = new MemoryStore({ clock: steppingClock() });
  await store.append({ runId: 'grove', kind: 'run.started', actor: 'system' });
  const call = { callId: 'c1', tool: 'oracle' };
  await store.append({
    runId: 'grove',
    kind: 'tool.called',
    actor: 'teller',
    payload: { ...call, parameters: { seed: 'moss' } },
  });
  await store.append({
    runId: 'grove',
    kind: 'tool.returned',
    actor: 'teller',
    payload: { ...call, output: { omen } },
  });
  writeFileSync(path, store.toJsonl());
}

/** The proof lines of the opened call (tool.called, policy.decided — not recorded —, tool.returned). */
async function proofLines(url: string): Promise<string[]> {
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(url);
  await page.locator('[data-testid=timeline] .row[data-actor="teller"]').click({ timeout: 30_000 });
  const lines = page.getByTestId('details').getByTestId('proof');
  await expect.poll(() => lines.count(), bound).toBe(2);
  await expect
    .poll(async () => (await lines.allTextContents()).some((text) => text.startsWith('checking')), bound)
    .toBe(false);
  const texts = await lines.allTextContents();
  const classes = await lines.evaluateAll((nodes) => nodes.map((node) => node.className));
  await page.close();
  expect(problems).toEqual([]);
  return texts.map((text, index) => `${classes[index]?.includes('status-ok') ? 'ok' : 'bad'} ${text}`);
}

describe.skipIf(skipBrowser)("serve --checkpoint: a record's inclusion proof, checked in the page", () => {
  it('shows a real record included, and a rewritten ledger and an edited checkpoint failing', async () => {
    const ledger = file('grove.jsonl');
    await writeLedger(ledger, 'rain');
    const log = file('log');
    expect((await run('keygen', 'example.com/agents', '--out', log)).code).toBe(0);
    const checkpoint = file('monday.checkpoint');
    expect((await run('checkpoint', ledger, '--key', `${log}.key`, '--out', checkpoint)).code).toBe(0);
    const trust = ['--checkpoint', checkpoint, '--pub', `${log}.pub`];

    const real = await proofLines((await serveChild(ledger, children, trust)).url);
    expect(real).toEqual([
      expect.stringMatching(
        /^ok ✔ included in checkpoint \S+monday\.checkpoint: seq 1 of the 3 records of example\.com\/agents, signed by "example\.com\/agents"; proof checked in this page$/,
      ),
      expect.stringMatching(/^ok ✔ included in checkpoint \S+: seq 2 of the 3 records/),
    ]);

    // The operator rewrites the ledger whole (one omen changed, every hash after it re-sealed): its
    // chain verifies, and only the checkpoint catches it.
    const rewritten = file('rewritten.jsonl');
    await writeLedger(rewritten, 'sun');
    expect((await run('verify', rewritten)).code).toBe(0);
    const caught = await proofLines((await serveChild(rewritten, children, trust)).url);
    expect(caught).toEqual([
      expect.stringMatching(
        /^bad ✘ not proven against checkpoint \S+monday\.checkpoint: the record at seq 1: .*root/,
      ),
      expect.stringMatching(/^bad ✘ not proven against checkpoint \S+: the record at seq 2: .*root/),
    ]);

    // A checkpoint edited after it was signed (it claims one more record).
    const edited = file('edited.checkpoint');
    writeFileSync(
      edited,
      readFileSync(checkpoint, 'utf8').replace(
        /\n(\d+)\n/,
        (_all, size: string) => `\n${Number(size) + 1}\n`,
      ),
    );
    const forged = await proofLines(
      (await serveChild(ledger, children, ['--checkpoint', edited, '--pub', `${log}.pub`])).url,
    );
    expect(forged).toEqual([
      expect.stringMatching(
        /^bad ✘ not proven against checkpoint \S+edited\.checkpoint: the checkpoint: the signature by "example\.com\/agents" does not verify/,
      ),
      expect.stringMatching(/^bad ✘ .*the signature by "example\.com\/agents" does not verify/),
    ]);
  }, 180_000);
});
