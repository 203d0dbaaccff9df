/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// The functions given to page.evaluate run in the browser, on its DOM.
import { type ChildProcess, execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { defineTool, ToolGate, ToolRegistry } from '@toolgate/core';
import type { LedgerEvent } from '@toolgate/ledger';
import {
  FileStore,
  LedgerRecorder,
  readLedgerFile,
  runsOf,
  steppingClock,
  verifyLedgerFile,
} from '@toolgate/ledger';
import {
  counter,
  hostileSeed,
  openScenarioWriter,
  temporaryFiles,
  writeViewerLedger,
} from '@toolgate/ledger/testing';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  chromiumFlags,
  chromiumPath,
  ledgerCli,
  requirePageBuilt,
  serveChild,
  skipBrowser,
} from '../test-support/viewer-browser.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const artifacts = join(root, 'artifacts');
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

/** Starts `toolgate-ledger serve FILE` as a child process; resolves to the URL it prints. */
async function serve(path: string): Promise<string> {
  return (await serveChild(path, children)).url;
}

function exportPage(path: string, out: string): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [ledgerCli, 'export', path, '--html', out], (error, _stdout, stderr) =>
      resolve({ code: error ? Number(error.code) : 0, stderr }),
    );
  });
}

/** Every URL each opened page requested. */
const requestsOf = new WeakMap<Page, string[]>();

async function open(url: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const requests: string[] = [];
  requestsOf.set(page, requests);
  page.on('request', (request) => requests.push(request.url()));
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  await page.goto(url);
  await page.getByTestId('status').waitFor(bound);
  // A script error or a CSP violation shows up here; the page must have neither.
  expect(problems).toEqual([]);
  return page;
}

async function chooseRun(page: Page, run: string): Promise<void> {
  await page.getByTestId('filter-run').selectOption(run);
}

/** The rows of the timeline as [seq cell, actor, outcome] triples. */
function rowsOf(page: Page): Promise<string[][]> {
  return page.$$eval('[data-testid=timeline] .row[data-key]', (rows) =>
    rows.map((row) => [
      (row.querySelector('.seq') as HTMLElement).textContent,
      (row as HTMLElement).dataset.actor ?? '',
      (row as HTMLElement).dataset.outcome ?? '',
    ]),
  );
}

function callRow(page: Page, actor: string, outcome: string) {
  return page.locator(`[data-testid=timeline] .row[data-actor="${actor}"][data-outcome="${outcome}"]`);
}

describe.skipIf(skipBrowser)('the ledger viewer in chromium (toolgate-ledger serve and export)', () => {
  let ledger: string;
  let events: LedgerEvent[];
  let url: string;

  beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true });
    ledger = join(artifacts, 'viewer.ledger.jsonl');
    rmSync(ledger, { force: true });
    events = await writeViewerLedger(ledger);
    url = await serve(ledger);
  });

  it('shows the verified status and head at the top, and marks the trespasser refused', async () => {
    const page = await open(url);
    const last = events.at(-1)!;
    await expect
      .poll(() => page.getByTestId('status').textContent(), bound)
      .toContain(`✔ Verified: hash chain intact up to seq ${last.seq} (${events.length} records)`);
    expect(await page.getByTestId('head').textContent()).toBe(`head: seq ${last.seq} · ${last.hash}`);
    // The page says what verify says of the file.
    expect(await verifyLedgerFile(ledger)).toEqual({
      ok: true,
      count: events.length,
      last: { seq: last.seq, hash: last.hash },
    });

    // The run list is the ledger's runs, as LedgerStore.runs() gives them: in the order they started,
    // each with its first and last seq and time.
    const runs = await runsOf(readLedgerFile(ledger));
    expect(runs.map((run) => [run.runId, run.firstSeq])).toEqual([
      ['grove-1', 0],
      ['grove-2', last.seq],
    ]);
    expect(await page.getByTestId('filter-run').locator('option').allTextContents()).toEqual([
      'all runs (2)',
      ...runs.map(
        (run) =>
          `${run.runId} · #${run.firstSeq}–#${run.lastSeq} · ${run.count} records · ${run.firstAt} – ${run.lastAt}`,
      ),
    ]);
    // The latest run is shown first; its runs can be switched between.
    expect(await rowsOf(page)).toEqual([[`#${last.seq} · t0`, 'system', 'event']]);
    await chooseRun(page, 'grove-1');
    const refusal = callRow(page, 'trespasser', 'refused');
    await expect.poll(() => refusal.count(), bound).toBe(1);
    expect(await refusal.locator('.badge').textContent()).toBe('refused: not granted');
    expect(await refusal.textContent()).toContain('CAPABILITY_VIOLATION');
    // Denials, approvals and failures are marked too, each in its own colour.
    expect(await callRow(page, 'teller', 'denied').count()).toBe(2);
    expect(await callRow(page, 'teller', 'failed').count()).toBe(3);
    expect(await callRow(page, 'teller', 'failed').locator('.badge-approved').allInnerTexts()).toEqual([
      'approved (asked)',
    ]);
    const refusedColour = await refusal
      .locator('.badge')
      .evaluate((badge) => getComputedStyle(badge).backgroundColor);
    const allowedColour = await callRow(page, 'teller', 'ok')
      .first()
      .locator('.badge')
      .evaluate((badge) => getComputedStyle(badge).backgroundColor);
    expect(refusedColour).not.toBe(allowedColour);
    await page.screenshot({ path: join(artifacts, 'viewer-timeline.png') });
    await page.close();
  });

  it('filters the timeline to one agent: its lane only, its calls only', async () => {
    const page = await open(url);
    await chooseRun(page, 'grove-1');
    await page.getByTestId('filter-agent').selectOption('critic');
    await expect
      .poll(async () => (await rowsOf(page)).map(([, actor]) => actor), bound)
      .toEqual(['critic', 'critic']);
    expect(await page.locator('.lane-name').allInnerTexts()).toEqual(['critic']);
    await page.getByTestId('filter-agent').selectOption('');
    await page.getByTestId('filter-outcome').selectOption('refused');
    await expect
      .poll(async () => (await rowsOf(page)).map(([, actor]) => actor), bound)
      .toEqual(['teller', 'trespasser']);
    await page.close();
  });

  it('opens a call: its three records with their seq, hash and full JSON', async () => {
    const page = await open(url);
    await chooseRun(page, 'grove-1');
    await callRow(page, 'teller', 'ok').first().click();
    const details = page.getByTestId('details');
    await details.waitFor(bound);
    const sections = await details.locator('section.record').evaluateAll((nodes) =>
      nodes.map((node) => ({
        kind: (node as HTMLElement).dataset.kind,
        title: (node.querySelector('h3') as HTMLElement).textContent,
        hash: (node.querySelector('.hash') as HTMLElement).textContent,
        json: JSON.parse((node.querySelector('pre') as HTMLElement).textContent),
      })),
    );
    const recorded = events.filter((event) => event.id.startsWith('grove-1:grove-1-call-1:'));
    expect(recorded.map((event) => event.kind)).toEqual(['tool.called', 'policy.decided', 'tool.returned']);
    expect(sections).toEqual(
      recorded.map((event) => ({
        kind: event.kind,
        title: `${event.kind} seq ${event.seq}`,
        hash: event.hash,
        json: event,
      })),
    );
    // A refused call has no policy record, and the page says why.
    await callRow(page, 'trespasser', 'refused').click();
    await expect
      .poll(() => details.locator('section[data-kind="policy.decided"]').textContent(), bound)
      .toContain('refused before policy was asked');
    await page.close();
  });

  it('renders ledger content holding <script> and <img onerror> as text, never as HTML', async () => {
    const page = await open(url);
    await chooseRun(page, 'grove-1');
    await page.getByTestId('search').fill('onerror');
    await expect.poll(async () => (await rowsOf(page)).length, bound).toBe(2);
    const texts = await page.locator('[data-testid=timeline] .row[data-key]').allInnerTexts();
    for (const text of texts) {
      expect(text).toContain('<img src=x onerror=');
      expect(text).toContain('<script>window.__pwned=2</script>');
    }
    await callRow(page, 'critic', 'ok').last().click();
    expect(await page.getByTestId('details').textContent()).toContain(
      JSON.stringify(hostileSeed).slice(1, -1),
    );
    const injected = await page.evaluate(() => ({
      images: document.querySelectorAll('img').length,
      scripts: [...document.querySelectorAll('script')].filter((script) =>
        script.textContent?.includes('__pwned'),
      ).length,
      pwned: (window as { __pwned?: unknown }).__pwned,
    }));
    expect(injected).toEqual({ images: 0, scripts: 0, pwned: undefined });
    await page.close();
  });

  it('shows a tampered copy with the bad seq named at the top, as verify names it', async () => {
    const tampered = file('tampered.jsonl');
    writeFileSync(
      tampered,
      readFileSync(ledger, 'utf8').replace('the stone remembers moss', 'the stone forgets moss'),
    );
    const verdict = await verifyLedgerFile(tampered);
    if (verdict.ok) throw new Error('the edit did not break the chain');
    const page = await open(await serve(tampered));
    await expect
      .poll(() => page.getByTestId('status').textContent(), bound)
      .toContain(`✘ Verification failed: bad record at seq ${verdict.seq}: ${verdict.reason}`);
    // The page first shows what it verified so far, then the records it keeps: wait for each.
    await expect
      .poll(() => page.getByTestId('status').textContent(), bound)
      .toContain(`Showing the ${verdict.seq} records before it`);
    await expect
      .poll(() => page.getByTestId('head').textContent(), bound)
      .toBe(`head: seq ${verdict.seq - 1} · ${events[verdict.seq - 1]!.hash}`);
    await page.close();
  });

  it('shows a record that a real writer appends while the page is open, without a reload', async () => {
    const live = file('live.jsonl');
    const { store, recorder, gate } = await openScenarioWriter(live, 'live-1');
    try {
      const critic = gate.forAgent({ name: 'critic', tools: ['oracle'] });
      await recorder.record('run.started', 'system', {});
      await critic.callTool('oracle', { seed: 'early' });
      await store.flush();
      // The writer holds the ledger's lock the whole time: the viewer only reads.
      const page = await open(await serve(live));
      await expect.poll(() => page.getByTestId('mode').textContent(), bound).toContain('live');
      await expect.poll(async () => (await rowsOf(page)).length, bound).toBe(2);
      await critic.callTool('oracle', { seed: 'late arrival' });
      await store.flush();
      const late = page.locator('[data-testid=timeline] .row', { hasText: 'late arrival' });
      await late.waitFor(bound);
      // Its row appears with the call's first record and turns ok when the result arrives.
      await expect.poll(() => late.getAttribute('data-outcome'), bound).toBe('ok');
      await expect
        .poll(() => page.getByTestId('status').textContent(), bound)
        .toContain(`up to seq ${store.head().seq - 1} (${store.head().seq} records)`);
      // It arrived over the one open stream: no reload, no reconnect.
      expect(requestsOf.get(page)!.filter((request) => request.endsWith('/events'))).toHaveLength(1);
      await page.close();
    } finally {
      await store.close();
    }
  });

  it('names a forged record appended while the page is open at the top, and shows nothing after it', async () => {
    const live = file('forged.jsonl');
    const { store, recorder, gate } = await openScenarioWriter(live, 'live-2');
    await recorder.record('run.started', 'system', {});
    await gate.forAgent({ name: 'critic', tools: ['oracle'] }).callTool('oracle', { seed: 'early' });
    await store.close();
    const page = await open(await serve(live));
    await expect.poll(async () => (await rowsOf(page)).length, bound).toBe(2);
    // Someone appends a record by hand: right shape, but it does not chain to the one before it.
    const last = JSON.parse(readFileSync(live, 'utf8').trim().split('\n').at(-1)!) as LedgerEvent;
    const forged = { ...last, seq: last.seq + 1, id: 'forged', payload: { seed: 'forged record' } };
    writeFileSync(live, `${JSON.stringify(forged)}\n`, { flag: 'a' });
    await expect
      .poll(() => page.getByTestId('status').textContent(), bound)
      .toContain(`✘ Verification failed while following: ${live}: the record at seq ${last.seq + 1}`);
    expect(await page.locator('[data-testid=timeline]').textContent()).not.toContain('forged record');
    await page.close();
  });

  it('shows an image content part of an output as an image, and an SVG one not at all', async () => {
    const path = file('images.jsonl');
    const pixel =
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
    const painter = defineTool({
      name: 'paint',
      description: 'Paints.',
      input: z.object({}),
      run: () => ({
        content: [
          { type: 'image', mimeType: 'image/png', data: pixel },
          { type: 'image', mimeType: 'image/svg+xml', data: btoa('<svg onload="window.__pwned=3"/>') },
        ],
      }),
    });
    const store = await FileStore.open(path, { clock: steppingClock() });
    const recorder = new LedgerRecorder(store, { runId: 'paint-1' });
    await new ToolGate(new ToolRegistry().register(painter), { recorder, callIds: counter() })
      .forAgent({ name: 'artist', tools: ['paint'] })
      .callTool('paint', {});
    await store.close();
    const page = await open(await serve(path));
    await callRow(page, 'artist', 'ok').click();
    const image = page.getByTestId('details').locator('img');
    await image.waitFor(bound);
    expect(await image.count()).toBe(1);
    expect(await image.getAttribute('src')).toBe(`data:image/png;base64,${pixel}`);
    // The browser decoded it: the CSP lets data: images in, and nothing else.
    await expect
      .poll(() => image.evaluate((element) => (element as HTMLImageElement).naturalWidth), bound)
      .toBe(1);
    expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
    await page.close();
  });

  it('exports one self-contained page that opens from file:// with no server and shows the same timeline', async () => {
    const out = join(artifacts, 'viewer-export.html');
    expect(await exportPage(ledger, out)).toEqual({ code: 0, stderr: '' });
    const served = await open(url);
    const exported = await open(pathToFileURL(out).href);
    for (const page of [served, exported]) await chooseRun(page, 'grove-1');
    await expect.poll(async () => (await rowsOf(exported)).length, bound).toBeGreaterThan(10);
    expect(await rowsOf(exported)).toEqual(await rowsOf(served));
    expect(await exported.getByTestId('status').textContent()).toBe(
      await served.getByTestId('status').textContent(),
    );
    expect(await exported.getByTestId('mode').textContent()).toContain('static export');
    // Everything the page needs is inside it: it loads nothing but itself.
    expect(requestsOf.get(exported)).toEqual([pathToFileURL(out).href]);
    await served.close();
    await exported.close();
  });
});
