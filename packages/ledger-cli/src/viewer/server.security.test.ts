import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { temporaryFiles, writeSampleLedger } from '@toolgate/ledger/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type LedgerViewer, serveLedger } from './server.js';

const file = temporaryFiles();
let viewer: LedgerViewer | undefined;

afterEach(async () => {
  await viewer?.close();
  viewer = undefined;
});

/** One raw HTTP request, with whatever Host and Origin headers an attacker's page would send. */
function send(
  url: string,
  options: { method?: string; path?: string; headers?: Record<string, string>; firstChunk?: boolean } = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const target = new URL(options.path ?? '/', url);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      target,
      { method: options.method ?? 'GET', headers: { host: target.host, ...options.headers } },
      (response) => {
        let body = '';
        response.on('data', (chunk) => {
          body += String(chunk);
          if (options.firstChunk) {
            response.destroy();
            resolve({ status: response.statusCode ?? 0, headers: response.headers, body });
          }
        });
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

describe('toolgate-ledger serve: local, read-only, Host-checked', () => {
  it('listens on 127.0.0.1 by default and serves the page with a hash-pinned Content-Security-Policy', async () => {
    viewer = await serveLedger(file('ledger.jsonl'));
    expect(new URL(viewer.url).hostname).toBe('127.0.0.1');
    const page = await send(viewer.url);
    expect(page.status).toBe(200);
    const policy = String(page.headers['content-security-policy']);
    expect(policy).toMatch(/script-src 'sha256-[A-Za-z0-9+/]+=*'/);
    expect(policy).toContain("default-src 'none'");
    expect(policy).not.toContain('unsafe-inline');
  });

  it('refuses a Host header that is not its own (DNS rebinding) before anything is read', async () => {
    const path = file('ledger.jsonl');
    await writeSampleLedger(path);
    viewer = await serveLedger(path);
    const port = new URL(viewer.url).port;
    for (const host of [`evil.example:${port}`, 'localhost:1', `127.0.0.1.evil.example:${port}`]) {
      const refused = await send(viewer.url, { path: '/events', headers: { host } });
      expect(refused.status).toBe(403);
      expect(refused.body).toBe(`Host header ${JSON.stringify(host)} is not allowed\n`);
    }
    // Every loopback name of the bound port is accepted.
    expect((await send(viewer.url, { headers: { host: `localhost:${port}` } })).status).toBe(200);
  });

  it('refuses a request from another site (an Origin that is not its own)', async () => {
    viewer = await serveLedger(file('ledger.jsonl'));
    const refused = await send(viewer.url, { path: '/events', headers: { origin: 'https://evil.example' } });
    expect(refused.status).toBe(403);
    expect(refused.body).toContain('Origin "https://evil.example" is not allowed');
  });

  it('guards /rows as it guards the page: a foreign Host or Origin is refused before any record is read', async () => {
    const path = file('ledger.jsonl');
    await writeSampleLedger(path);
    viewer = await serveLedger(path);
    const port = new URL(viewer.url).port;
    const refused = await send(viewer.url, { path: '/rows?run=', headers: { host: `evil.example:${port}` } });
    expect(refused.status).toBe(403);
    expect(refused.body).not.toContain('oracle');
    const foreign = await send(viewer.url, {
      path: '/rows?run=',
      headers: { origin: 'https://evil.example' },
    });
    expect(foreign.status).toBe(403);
    // the page's own origin is served; the shared follow may still be reading the ledger at first
    const url = viewer.url;
    await vi.waitFor(
      async () => {
        const own = await send(url, { path: '/rows?run=' });
        expect(own.status).toBe(200);
        expect(JSON.parse(own.body).rows.length).toBeGreaterThan(0);
      },
      { timeout: 20_000, interval: 100 },
    );
  });

  it('answers only GET and HEAD: it never changes the ledger', async () => {
    const path = file('ledger.jsonl');
    await writeSampleLedger(path);
    const before = readFileSync(path);
    viewer = await serveLedger(path);
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const refused = await send(viewer.url, { method, path: '/events' });
      expect(refused.status).toBe(405);
      expect(refused.headers.allow).toBe('GET, HEAD');
    }
    expect(readFileSync(path)).toEqual(before);
  });

  it('streams a ledger it cannot read with the failure as its status', async () => {
    viewer = await serveLedger(file('missing.jsonl'));
    const stream = await send(viewer.url, { path: '/events', firstChunk: true });
    expect(stream.headers['content-type']).toContain('text/event-stream');
    const data = JSON.parse(/^event: status\ndata: (.*)$/m.exec(stream.body)![1]!);
    expect(data.status.state).toBe('unreadable');
    expect(data.status.message).toContain('missing.jsonl');
  });
});
