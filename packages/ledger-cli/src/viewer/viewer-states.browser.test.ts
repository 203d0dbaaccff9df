/// <reference lib="dom" />
import type { ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { openScenarioWriter, temporaryFiles, writeViewerLedger } from '@toolgate/ledger/testing';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chromiumFlags,
  chromiumPath,
  requirePageBuilt,
  serveChild,
  skipBrowser,
} from '../test-support/viewer-browser.js';
import { serveLedger } from './server.js';

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

const classOf = (page: Page, testid: string) => page.getByTestId(testid).getAttribute('class');
const textOf = (page: Page, testid: string) => page.getByTestId(testid).textContent();

describe.skipIf(skipBrowser)('the viewer says Verified only when it is (toolgate-ledger serve)', () => {
  it('is not green before its data arrives, and green once verification has read the whole ledger', async () => {
    const path = file('sample.jsonl');
    const events = await writeViewerLedger(path);
    const { url } = await serveChild(path, children);
    const page = await browser.newPage();
    // hold back everything the page asks the server for, to look at it before any data arrives
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    for (const pattern of ['**/events', '**/rows?*']) {
      await page.route(pattern, async (route) => {
        await held;
        await route.continue();
      });
    }
    await page.goto(url);
    await page.getByTestId('status').waitFor(bound);
    expect(await textOf(page, 'status')).toContain('Not verified yet');
    expect(await textOf(page, 'status')).not.toContain('Verified:');
    expect(await classOf(page, 'status')).toContain('status-pending');
    expect(await classOf(page, 'status')).not.toContain('status-ok');
    expect(await classOf(page, 'mode')).not.toContain('mode-live');
    release();
    const last = events.at(-1)!;
    await expect
      .poll(() => textOf(page, 'status'), bound)
      .toContain(`✔ Verified: hash chain intact up to seq ${last.seq} (${events.length} records)`);
    expect(await classOf(page, 'status')).toContain('status-ok');
    await expect.poll(() => classOf(page, 'mode'), bound).toContain('mode-live');
    await page.close();
  });

  it('shows a missing ledger as an error, never green or live, and the ledger once it is written', async () => {
    const path = file('later.jsonl');
    const { url } = await serveChild(path, children);
    const page = await browser.newPage();
    await page.goto(url);
    await expect.poll(() => textOf(page, 'status'), bound).toContain('✘ Cannot read the ledger');
    expect(await textOf(page, 'status')).toContain('ENOENT');
    expect(await classOf(page, 'status')).toContain('status-bad');
    await expect.poll(() => textOf(page, 'mode'), bound).toContain('waiting for a readable ledger');
    expect(await classOf(page, 'mode')).not.toContain('mode-live');
    // the server keeps looking: a run that starts later is shown, verified
    const events = await writeViewerLedger(path);
    await expect
      .poll(() => textOf(page, 'status'), bound)
      .toContain(`✔ Verified: hash chain intact up to seq ${events.at(-1)!.seq}`);
    await expect.poll(() => classOf(page, 'mode'), bound).toContain('mode-live');
    await page.close();
  });

  // `toolgate-ledger serve DIR` serves a ledger directory (ledger-directory.test.ts); the viewer of one
  // ledger, given a directory where it expects a file, must still say it cannot read it
  it('shows a ledger that cannot be read (a directory) as an error, never green', async () => {
    const path = file('a-directory.jsonl');
    mkdirSync(path);
    const viewer = await serveLedger(path);
    try {
      const page = await browser.newPage();
      await page.goto(viewer.url);
      await expect.poll(() => textOf(page, 'status'), bound).toContain('✘ Cannot read the ledger');
      expect(await textOf(page, 'status')).toContain('EISDIR');
      expect(await classOf(page, 'status')).toContain('status-bad');
      expect(await classOf(page, 'mode')).not.toContain('mode-live');
      await page.close();
    } finally {
      await viewer.close();
    }
  });

  it("says the server refused a page past its cap of live pages, in the server's words", async () => {
    const path = file('capped.jsonl');
    await writeViewerLedger(path);
    const viewer = await serveLedger(path, { maxStreams: 1 });
    try {
      const first = await browser.newPage();
      await first.goto(viewer.url);
      await expect.poll(() => classOf(first, 'mode'), bound).toContain('mode-live');
      const second = await browser.newPage();
      await second.goto(viewer.url);
      await expect
        .poll(() => textOf(second, 'mode'), bound)
        .toContain('too many pages are following this ledger (1 at most); close one and reload');
      expect(await classOf(second, 'mode')).toContain('mode-lost');
      // the first page follows on, unharmed
      expect(await classOf(first, 'mode')).toContain('mode-live');
      await first.close();
      await second.close();
    } finally {
      await viewer.close();
    }
  });

  // A live update redraws the window; it must not take the search box from under the person typing
  // in it (it once did: the toolbar was rebuilt, the box moved, its focus lost and the keys after
  // it typed into nothing).
  it('keeps the focus and text of the search box while records arrive', async () => {
    const path = file('typing.jsonl');
    const { store, recorder, gate } = await openScenarioWriter(path, 'typing-1');
    try {
      const critic = gate.forAgent({ name: 'critic', tools: ['oracle'] });
      await recorder.record('run.started', 'system', {});
      await critic.callTool('oracle', { seed: 'early' });
      await store.flush();
      const { url } = await serveChild(path, children);
      const page = await browser.newPage();
      await page.goto(url);
      await expect.poll(() => classOf(page, 'mode'), bound).toContain('mode-live');
      const search = page.getByTestId('search');
      await search.click();
      await page.keyboard.type('arr');
      await critic.callTool('oracle', { seed: 'late arrival' });
      await store.flush();
      // the new record is in the window: the page has redrawn it since the keys were typed
      const late = page.locator('[data-testid=timeline] .row', { hasText: 'late arrival' });
      await late.waitFor(bound);
      await page.keyboard.type('ival');
      expect(await search.inputValue()).toBe('arrival');
      expect(await search.evaluate((box) => box === document.activeElement)).toBe(true);
      await expect.poll(() => page.locator('[data-testid=timeline] .row[data-key]').count(), bound).toBe(1);
      await page.close();
    } finally {
      await store.close();
    }
  });
});
