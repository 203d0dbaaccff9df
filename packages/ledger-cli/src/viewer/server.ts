import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ToolgateError } from '@toolgate/core';
import type { LedgerEvent } from '@toolgate/ledger';
import { readLedgerFile } from '@toolgate/ledger';
import { pageAssets } from './assets.js';
import { allowListFor, refuseHost } from './host-guard.js';
import { contentSecurityPolicy, renderPage } from './html.js';
import { ledgerStatus } from './load.js';

/** What {@link serveLedger} takes. */
export interface ServeLedgerOptions {
  /** The address to listen on. Default `127.0.0.1`. */
  host?: string;
  /** The port; 0 (the default) picks a free one. */
  port?: number;
  /** How often the live follow looks for new records, in ms. Default 100. */
  pollMs?: number;
}

/** A running viewer. */
export interface LedgerViewer {
  /** The page's address, e.g. `http://127.0.0.1:41234/`. */
  readonly url: string;
  /** Ends every open page's stream and stops listening. */
  close(): Promise<void>;
}

/**
 * Serves a read-only page of a ledger file: its verification, runs, a lane per agent, and new
 * records live as another process appends them (server-sent events over a verifying follow; the
 * writer's lock is never taken). Answers only GET, and only to the `Host` and `Origin` it is bound
 * to (DNS-rebinding protection).
 *
 * @example
 * const viewer = await serveLedger('run.ledger.jsonl');
 * console.log(`open ${viewer.url}`);
 */
export async function serveLedger(file: string, options: ServeLedgerOptions = {}): Promise<LedgerViewer> {
  const assets = await pageAssets();
  const page = renderPage(assets);
  const policy = contentSecurityPolicy(assets);
  const host = options.host ?? '127.0.0.1';
  const streams = new Set<AbortController>();
  let allowed = allowListFor(host, options.port ?? 0);

  const server = createServer((request, response) => {
    const refusal = refuseHost(request, allowed);
    if (refusal) return plain(response, 403, `${refusal}\n`);
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.setHeader('Allow', 'GET, HEAD');
      return plain(response, 405, 'this viewer is read-only: only GET and HEAD\n');
    }
    const path = new URL(request.url ?? '/', 'http://viewer').pathname;
    if (path === '/') {
      response.writeHead(200, {
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Security-Policy': policy,
        'X-Content-Type-Options': 'nosniff',
        'Cache-Control': 'no-store',
      });
      return void response.end(request.method === 'HEAD' ? undefined : page);
    }
    if (path === '/events') return void stream(file, response, streams, options.pollMs);
    return plain(response, 404, `no page at ${path}; the ledger is at /\n`);
  });
  server.listen(options.port ?? 0, host);
  await Promise.race([
    once(server, 'listening'),
    once(server, 'error').then(([error]) => {
      throw new ToolgateError(
        'LEDGER_UNAVAILABLE',
        `cannot listen on ${host}:${options.port ?? 0}: ${(error as Error).message}; pick another --port or --host`,
        { cause: error },
      );
    }),
  ]);
  const { port } = server.address() as AddressInfo;
  allowed = allowListFor(host, port);
  const shown = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shown}:${port}/`,
    async close() {
      for (const controller of streams) controller.abort();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function plain(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'X-Content-Type-Options': 'nosniff',
  });
  response.end(text);
}

/** One page's event stream: the status, then every record in batches as the follow yields them. */
async function stream(
  file: string,
  response: ServerResponse,
  streams: Set<AbortController>,
  pollMs: number | undefined,
): Promise<void> {
  const controller = new AbortController();
  streams.add(controller);
  response.on('close', () => controller.abort());
  response.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  const send = (name: string, data: unknown) => {
    if (!controller.signal.aborted) response.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  let pending: LedgerEvent[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending.length > 0) send('records', pending);
    pending = [];
  };
  try {
    send('status', { file, status: await ledgerStatus(file) });
    for await (const event of readLedgerFile(file, {
      follow: true,
      signal: controller.signal,
      ...(pollMs === undefined ? {} : { pollMs }),
    })) {
      pending.push(event);
      if (pending.length >= 500) flush();
      else if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    }
  } catch (error) {
    flush();
    // The stream stays open, so that the page does not reconnect and read the ledger again.
    send('fault', { message: (error as Error).message });
    return;
  } finally {
    streams.delete(controller);
  }
  flush();
  response.end();
}
