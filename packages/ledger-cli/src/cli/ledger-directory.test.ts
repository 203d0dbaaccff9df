import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { temporaryFiles, writeSampleLedger } from '@toolgate/ledger/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { serveLedgerDirectory } from '../viewer/directory-server.js';
import type { LedgerViewer } from '../viewer/server.js';
import { main } from './main.js';

const file = temporaryFiles();

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: {
      stdout: { write: (text: string) => out.push(text) },
      stderr: { write: (text: string) => err.push(text) },
      env: {},
    },
    out: () => out.join(''),
    err: () => err.join(''),
  };
}

/** A ledger directory of two sound chains (and a file that is not a chain). */
async function directoryOfChains(): Promise<{ directory: string; first: string; second: string }> {
  const directory = join(dirname(file('x')), 'ledgers');
  mkdirSync(directory);
  const first = join(directory, 'gateway-20261201T000000Z-10-aaaaaa.jsonl');
  const second = join(directory, 'gateway-20261201T000001Z-11-bbbbbb.jsonl');
  await writeSampleLedger(first);
  await writeSampleLedger(second);
  writeFileSync(join(directory, `${second}.lock`.split('/').pop()!), '');
  return { directory, first, second };
}

describe('toolgate-ledger verify DIR', () => {
  it('verifies every chain of a ledger directory, naming each', async () => {
    const { directory, first, second } = await directoryOfChains();
    const output = io();
    expect(await main(['verify', directory], output.io)).toBe(0);
    expect(output.out()).toContain(`${first}: ok, 4 records verified`);
    expect(output.out()).toContain(`${second}: ok, 4 records verified`);
    expect(output.out()).toContain(`${directory}: ok, 2 chains verified (8 records)`);
  });

  it('fails (exit 1) when one chain is tampered with, naming that chain and its bad seq', async () => {
    const { directory, first, second } = await directoryOfChains();
    writeFileSync(second, readFileSync(second, 'utf8').replace('"seed":"moss"', '"seed":"mass"'));
    const output = io();
    expect(await main(['verify', directory], output.io)).toBe(1);
    expect(output.out()).toContain(`${first}: ok`);
    expect(output.err()).toContain(`${second}: bad record at seq 1: its hash does not match its content`);
    expect(output.err()).toContain(`${directory}: 1 of 2 chains failed verification`);
  });

  it('never passes a directory with no chain in it (exit 3), and says what to give', async () => {
    const directory = dirname(file('x'));
    mkdirSync(directory, { recursive: true });
    const output = io();
    expect(await main(['verify', directory], output.io)).toBe(3);
    expect(output.err()).toContain('no chain files (*.jsonl) in this directory, so nothing was verified');
  });

  it('refuses show, head, runs and --head on a directory, naming one chain as the way', async () => {
    const { directory } = await directoryOfChains();
    for (const argv of [
      ['show', directory],
      ['head', directory],
      ['runs', directory],
      ['verify', directory, '--head', '0'.repeat(64)],
    ]) {
      const output = io();
      expect(await main(argv, output.io)).toBe(2);
      expect(output.err()).toContain(`${directory} is a ledger directory (one chain per process)`);
    }
  });

  it('export refuses a directory, listing its chains to choose from', async () => {
    const { directory, first } = await directoryOfChains();
    const output = io();
    expect(await main(['export', directory, '--html', file('page.html')], output.io)).toBe(2);
    expect(output.err()).toContain(first);
  });
});

describe('the viewer of a ledger directory', () => {
  let viewer: LedgerViewer | undefined;
  afterEach(async () => {
    await viewer?.close();
    viewer = undefined;
  });

  it('lists every chain with its verification, and serves each chain its own live page', async () => {
    const { directory, second } = await directoryOfChains();
    writeFileSync(second, readFileSync(second, 'utf8').replace('"seed":"moss"', '"seed":"mass"'));
    viewer = await serveLedgerDirectory(directory);
    const index = await (await fetch(viewer.url)).text();
    expect(index).toContain('1 of 2 chains failed verification');
    expect(index).toMatch(/<li class="ok"><a href="chains\/gateway-20261201T000000Z-10-aaaaaa\.jsonl\/">/);
    expect(index).toMatch(/<li class="bad">.*bad record at seq 1/);
    expect(index).not.toContain('.lock');

    const chain = `${viewer.url}chains/gateway-20261201T000000Z-10-aaaaaa.jsonl/`;
    const page = await fetch(chain);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const rows = await waitForRows(`${chain}rows?from=0&limit=10`);
    expect(rows).toContain('"state":"verified"');
    expect(rows).toContain('gateway-20261201T000000Z-10-aaaaaa.jsonl');
    const redirect = await fetch(chain.slice(0, -1), { redirect: 'manual' });
    expect(redirect.status).toBe(301);
  });

  it('serves no file but the chains it lists (404)', async () => {
    const { directory } = await directoryOfChains();
    viewer = await serveLedgerDirectory(directory);
    for (const path of [
      'chains/..%2F..%2Fetc%2Fpasswd/',
      'chains/missing.jsonl/',
      'chains/gateway-20261201T000001Z-11-bbbbbb.jsonl.lock/',
    ]) {
      expect((await fetch(`${viewer.url}${path}`)).status).toBe(404);
    }
  });
});

/** The chain's rows, once its follow has read and verified the file (the viewer does it in the background). */
async function waitForRows(url: string): Promise<string> {
  return vi.waitFor(
    async () => {
      const text = await (await fetch(url)).text();
      // the rows, and the state once the chain's follow has verified the whole file
      if (!text.includes('oracle') || !text.includes('"state":"verified"'))
        throw new Error(`no rows yet: ${text.slice(0, 200)}`);
      return text;
    },
    { timeout: 30_000, interval: 100 },
  );
}
