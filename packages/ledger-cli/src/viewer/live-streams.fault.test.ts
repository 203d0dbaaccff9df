import type { ChildProcess } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { temporaryFiles, writeLargeLedger, writeSampleLedger } from '@toolgate/ledger/testing';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { requirePageBuilt, serveChild } from '../test-support/viewer-browser.js';
import { type LedgerViewer, serveLedger } from './server.js';

const file = temporaryFiles();
const children: ChildProcess[] = [];
const sockets: Socket[] = [];
let viewer: LedgerViewer | undefined;

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await viewer?.close();
  viewer = undefined;
});
afterAll(() => {
  for (const child of children) child.kill('SIGTERM');
});

/** The resident memory of a process, in bytes. */
function rss(pid: number): number {
  const line = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(line![1]) * 1024;
}

/** The first status of `/events` whose state passes `test`, read by a reader that keeps up. */
function statusWhen(url: string, test: (state: { status: { state: string } }) => boolean): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const outgoing = request(new URL('/events', url), (response) => {
      let text = '';
      response.on('data', (chunk) => {
        text += String(chunk);
        for (const match of text.matchAll(/^data: (.*)$/gm)) {
          const state = JSON.parse(match[1]!);
          if (test(state)) {
            response.destroy();
            resolve(state);
          }
        }
      });
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/**
 * A reader that sends its request, takes the first chunk of the answer (so the server has answered
 * it: the stream is open, or the window on its way) and then never reads another byte.
 */
function slowReader(url: string, path: string): Promise<void> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  sockets.push(socket);
  return new Promise((resolve, reject) => {
    socket.once('connect', () => socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n\r\n`));
    socket.once('data', (chunk) => {
      socket.pause();
      if (String(chunk).startsWith('HTTP/1.1 200')) resolve();
      else reject(new Error(`${path} answered ${String(chunk).split('\r\n')[0]}`));
    });
    socket.once('error', reject);
  });
}

function get(url: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(new URL(path, url), (response) => {
      // a stream never ends: its status is the answer
      if (response.headers['content-type']?.includes('event-stream')) {
        response.destroy();
        return resolve({ status: response.statusCode ?? 0, body: '' });
      }
      let body = '';
      response.on('data', (chunk) => {
        body += String(chunk);
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

describe('toolgate-ledger serve under slow readers', () => {
  it('does not grow with the ledger size times the readers: 24 readers that never read a 27 MB ledger', {
    timeout: 120_000,
  }, async () => {
    requirePageBuilt();
    const path = file('big.jsonl');
    await writeLargeLedger(path, 9_000, 1_850);
    const size = statSync(path).size;
    expect(size).toBeGreaterThan(25_000_000);
    const served = await serveChild(path, children);
    await statusWhen(served.url, (state) => state.status.state === 'verified');
    const before = rss(served.child.pid!);
    for (let reader = 0; reader < 12; reader++) {
      await slowReader(served.url, '/events');
      await slowReader(served.url, `/rows?run=&from=${reader * 50}&limit=50`);
    }
    // the server has taken every request once a reader that keeps up is answered after them
    expect((await get(served.url, '/rows?run=&limit=1')).status).toBe(200);
    let peak = 0;
    for (let sample = 0; sample < 20; sample++) {
      peak = Math.max(peak, rss(served.child.pid!));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // each slow reader holds at most one message or one window (50 rows), never a copy of the ledger
    expect(peak - before).toBeLessThan(size);
  });
});

describe('toolgate-ledger serve: capped live streams', () => {
  it('answers 503 past the cap, saying so, and takes a stream again once one closes', {
    timeout: 60_000,
  }, async () => {
    const path = file('ledger.jsonl');
    await writeSampleLedger(path);
    viewer = await serveLedger(path, { maxStreams: 2 });
    const url = viewer.url;
    await slowReader(url, '/events');
    await slowReader(url, '/events');
    await vi.waitFor(
      async () => {
        const refused = await get(url, '/events');
        expect(refused.status).toBe(503);
        expect(refused.body).toContain('too many pages are following this ledger (2 at most)');
      },
      { timeout: 20_000, interval: 100 },
    );
    sockets.shift()!.destroy();
    await vi.waitFor(async () => expect((await get(url, '/events')).status).toBe(200), {
      timeout: 20_000,
      interval: 100,
    });
  });

  it('shares one follow: every stream tells the same state', { timeout: 60_000 }, async () => {
    const path = file('ledger.jsonl');
    const events = await writeSampleLedger(path);
    viewer = await serveLedger(path);
    const states = await Promise.all(
      [1, 2, 3].map(() => statusWhen(viewer!.url, (state) => state.status.state === 'verified')),
    );
    for (const state of states) {
      expect(state).toMatchObject({ count: events.length, last: { seq: events.at(-1)!.seq } });
    }
  });
});
