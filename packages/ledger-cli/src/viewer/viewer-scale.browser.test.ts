/// <reference lib="dom" />
import type { ChildProcess } from 'node:child_process';
import { type LargeLedger, temporaryFiles, writeLargeLedger } from '@toolgate/ledger/testing';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chromiumFlags,
  chromiumPath,
  requirePageBuilt,
  serveChild,
  skipBrowser,
} from '../test-support/viewer-browser.js';

const file = temporaryFiles();
// a guard against a hang only: on a busy 2-core machine verifying 210,000 records can take a minute
const bound = { timeout: 180_000 };
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

/** The page's JS heap after a full collection, in bytes (CDP, so the number is the live heap). */
async function heapOf(page: Page): Promise<number> {
  const session = await page.context().newCDPSession(page);
  await session.send('HeapProfiler.collectGarbage');
  const { usedSize } = await session.send('Runtime.getHeapUsage');
  await session.detach();
  return usedSize;
}

const rowCount = (page: Page) => page.locator('[data-testid=timeline] .row[data-key]').count();
const range = (page: Page) => page.getByTestId('page-range').textContent();

/**
 * Opens the page of a ledger, waits for it to verify, then scrolls, pages to the end and back,
 * filters by outcome and searches: what a person does with a big ledger. Returns the heap at the end.
 */
async function browse(url: string, ledger: LargeLedger): Promise<number> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(url);
  await expect
    .poll(() => page.getByTestId('status').textContent(), bound)
    .toContain(`✔ Verified: hash chain intact up to seq ${ledger.records - 1} (${ledger.records} records)`);
  const calls = ledger.records / 3;
  await expect.poll(() => range(page), bound).toBe(`rows 1–${Math.min(200, calls)} of ${calls}`);
  expect(await rowCount(page)).toBeLessThanOrEqual(200);
  await page.mouse.wheel(0, 20_000);
  await expect.poll(() => page.evaluate(() => scrollY > 0), bound).toBe(true);
  await page.getByTestId('page-last').click();
  await expect.poll(() => range(page), bound).toMatch(new RegExp(`^rows \\d+–${calls} of ${calls}$`));
  const lastRow = page.locator('[data-testid=timeline] .row[data-key]').last();
  expect(await lastRow.locator('.seq').textContent()).toBe(`#${ledger.records - 3} · t${calls - 1}`);
  await page.getByTestId('page-first').click();
  await expect.poll(() => range(page), bound).toMatch(/^rows 1–/);
  await page.getByTestId('filter-outcome').selectOption('failed');
  await expect
    .poll(() => range(page), bound)
    .toBe(`rows 1–${Math.min(200, ledger.failed)} of ${ledger.failed}`);
  expect(await page.locator('[data-testid=timeline] .row[data-outcome=failed]').count()).toBe(
    Math.min(200, ledger.failed),
  );
  await page.getByTestId('filter-outcome').selectOption('');
  // one step at a time, as a person does: the filter is off again before the search is typed
  await expect.poll(() => range(page), bound).toBe(`rows 1–${Math.min(200, calls)} of ${calls}`);
  await page.getByTestId('search').fill('needle-');
  await expect.poll(() => range(page), bound).toBe(`rows 1–${ledger.needles} of ${ledger.needles}`);
  await page.locator('[data-testid=timeline] .row[data-key]').first().click();
  await expect.poll(() => page.getByTestId('details').textContent(), bound).toContain('needle-77"');
  const heap = await heapOf(page);
  expect(problems).toEqual([]);
  await page.close();
  return heap;
}

describe.skipIf(skipBrowser)('the viewer at scale: windows of rows from the server', () => {
  it('opens, scrolls, pages and filters a 210,000-record ledger with the heap of a 2,100-record one', {
    timeout: 600_000,
  }, async () => {
    const small = file('small.jsonl');
    const large = file('large.jsonl');
    const smallLedger = await writeLargeLedger(small, 700);
    const largeLedger = await writeLargeLedger(large, 70_000);
    expect(largeLedger.records).toBe(210_000);
    const [smallUrl, largeUrl] = await Promise.all([
      serveChild(small, children),
      serveChild(large, children),
    ]);
    const smallHeap = await browse(smallUrl.url, smallLedger);
    const largeHeap = await browse(largeUrl.url, largeLedger);
    // a page that held every record would need over a hundred times the small one's records
    expect(largeHeap).toBeLessThan(smallHeap * 1.5 + 4 * 1024 * 1024);
  });
});
