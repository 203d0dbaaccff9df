/**
 * The viewer at scale (issue 27.9): `serveLedger` (what `toolgate-ledger serve` runs) of a
 * 1,000,000-record ledger against a 10,000-record one, browsed in Chromium as a person does: open the page and wait until the chain
 * is verified, scroll, page to the last rows and back, filter by outcome, search. The page holds a
 * window of rows from the server, never the ledger, so the browser's memory must not grow with the
 * ledger: the verdict is the page's live JS heap (after a full collection) at the end of a browse,
 * large against small. Printed beside: the time to the verified first page, the time a filter and a
 * search take to show their rows, and the DOM's node count.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LargeLedger, writeLargeLedger } from '@toolgate/ledger/testing';
import { serveLedger } from '@toolgate/ledger-cli';
import { type Browser, chromium, type Page } from 'playwright-core';
import { format, median, quick, report, row } from './report.js';

const directory = mkdtempSync(join(tmpdir(), 'toolgate-viewer-bench-'));
process.on('exit', () => rmSync(directory, { recursive: true, force: true }));
/** Debian's chromium and the flags that work as root here (TOOLCHAIN.md), as the viewer's tests use. */
const chromiumPath = '/usr/bin/chromium';
const chromiumFlags = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-sync'];
// a guard against a hang only: verifying a million records on a busy 2-core machine takes a while
const bound = 300_000;

/** Calls (three records each) of the small and the large ledger. */
const smallCalls = quick ? 1_000 : 3_334;
const largeCalls = quick ? 10_000 : 333_334;

/** Polls `probe` until it returns true; throws after {@link bound}. */
async function until(page: Page, what: string, probe: () => Promise<boolean>): Promise<void> {
  const deadline = performance.now() + bound;
  while (!(await probe())) {
    if (performance.now() > deadline) {
      const shown = `status "${await text(page, 'status')}", range "${await text(page, 'page-range')}"`;
      throw new Error(`the page did not show ${what} in ${bound} ms (it shows ${shown})`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const text = (page: Page, id: string) => page.getByTestId(id).textContent();

interface Browse {
  /** The page's live JS heap at the end, MiB. */
  heapMiB: number;
  /** DOM nodes at the end. */
  nodes: number;
  /** From navigation to the verified first page, ms. */
  openMs: number;
  /** From choosing the filter to its rows, ms. */
  filterMs: number;
  /** From typing the search to its rows, ms. */
  searchMs: number;
}

/** Browses one served ledger in a fresh page; the figures at the end. */
async function browse(browser: Browser, url: string, ledger: LargeLedger): Promise<Browse> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  const calls = ledger.records / 3;
  const firstPage = `rows 1–${Math.min(200, calls)} of ${calls}`;
  const opened = performance.now();
  await page.goto(url);
  await until(page, 'the chain verified', async () =>
    ((await text(page, 'status')) ?? '').includes(`(${ledger.records} records)`),
  );
  await until(page, 'the first page', async () => (await text(page, 'page-range')) === firstPage);
  const openMs = performance.now() - opened;
  await page.mouse.wheel(0, 20_000);
  await page.getByTestId('page-last').click();
  await until(page, 'the last page', async () =>
    ((await text(page, 'page-range')) ?? '').endsWith(`–${calls} of ${calls}`),
  );
  await page.getByTestId('page-first').click();
  await until(page, 'the first page again', async () =>
    ((await text(page, 'page-range')) ?? '').startsWith('rows 1–'),
  );
  const filtered = performance.now();
  await page.getByTestId('filter-outcome').selectOption('failed');
  await until(
    page,
    'the failed calls',
    async () =>
      (await text(page, 'page-range')) === `rows 1–${Math.min(200, ledger.failed)} of ${ledger.failed}`,
  );
  const filterMs = performance.now() - filtered;
  await page.getByTestId('filter-outcome').selectOption('');
  await until(page, 'every call again', async () => (await text(page, 'page-range')) === firstPage);
  const searched = performance.now();
  await page.getByTestId('search').fill('needle-');
  await until(
    page,
    'the found calls',
    async () =>
      (await text(page, 'page-range')) === `rows 1–${Math.min(200, ledger.needles)} of ${ledger.needles}`,
  );
  const searchMs = performance.now() - searched;
  // measured on the first page of every call, 200 rows on either side
  await page.getByTestId('search').fill('');
  await until(
    page,
    'every call after the search',
    async () => (await text(page, 'page-range')) === firstPage,
  );
  const session = await page.context().newCDPSession(page);
  await session.send('HeapProfiler.collectGarbage');
  const { usedSize } = await session.send('Runtime.getHeapUsage');
  await session.send('Performance.enable');
  const { metrics } = await session.send('Performance.getMetrics');
  await session.detach();
  await page.close();
  if (problems.length > 0) throw new Error(`the page threw: ${problems.join('; ')}`);
  return {
    heapMiB: usedSize / 1024 / 1024,
    nodes: metrics.find((metric) => metric.name === 'Nodes')?.value ?? Number.NaN,
    openMs,
    filterMs,
    searchMs,
  };
}

const small = await writeLargeLedger(join(directory, 'small.jsonl'), smallCalls);
const large = await writeLargeLedger(join(directory, 'large.jsonl'), largeCalls);
const smallServed = await serveLedger(join(directory, 'small.jsonl'));
const largeServed = await serveLedger(join(directory, 'large.jsonl'));
const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumFlags });
const sides = [
  { name: 'small', ledger: small, served: smallServed },
  { name: 'large', ledger: large, served: largeServed },
] as const;
const figures = new Map<string, Browse[]>(sides.map(({ name }) => [name, []]));
try {
  for (let round = 0; round < (quick ? 1 : 3); round++) {
    for (const { name, ledger, served } of sides) {
      figures.get(name)!.push(await browse(browser, served.url, ledger));
    }
  }
} finally {
  await browser.close();
  await Promise.all([smallServed.close(), largeServed.close()]);
}

const of = (name: string, pick: (browse: Browse) => number) => figures.get(name)!.map(pick);
const label = (ledger: LargeLedger) => `${format(ledger.records)} records`;
const heapRatio = median(of('large', (b) => b.heapMiB)) / median(of('small', (b) => b.heapMiB));
const nodes = (name: string) => format(median(of(name, (b) => b.nodes)));
const ms = (name: string, pick: (browse: Browse) => number) => `${format(median(of(name, pick)))} ms`;
report({
  id: 'viewer-scale',
  title: `viewer: a page of a ${label(large)} ledger against a ${label(small)} one, in Chromium`,
  what:
    '`serveLedger` (what `toolgate-ledger serve` runs) of each ledger (three records a call, every tenth call failed), browsed in headless ' +
    'Chromium in a fresh page per round, sides alternating: open and wait for the verified first page, scroll, ' +
    "page to the last rows and back, filter by outcome, search, clear the search. The page's live JS heap after a full " +
    'collection (CDP) at the end of each browse, on the first page of every call; the page holds a window of rows from the server (`/rows`), never the ledger.',
  rows: [
    row(
      `page JS heap, ${label(small)}`,
      of('small', (b) => b.heapMiB),
      'MiB',
    ),
    row(
      `page JS heap, ${label(large)}`,
      of('large', (b) => b.heapMiB),
      'MiB',
    ),
    row(
      `open to the verified first page, ${label(small)}`,
      of('small', (b) => b.openMs),
      'ms',
    ),
    row(
      `open to the verified first page, ${label(large)}`,
      of('large', (b) => b.openMs),
      'ms',
    ),
  ],
  figure:
    `page heap ${format(heapRatio)}× at ${label(large)} (DOM nodes ${nodes('small')} → ${nodes('large')}; ` +
    `filter ${ms('small', (b) => b.filterMs)} → ${ms('large', (b) => b.filterMs)}, ` +
    `search ${ms('small', (b) => b.searchMs)} → ${ms('large', (b) => b.searchMs)})`,
  target: '≤ 1.2× the page heap of the small ledger',
  met: heapRatio <= 1.2,
});
