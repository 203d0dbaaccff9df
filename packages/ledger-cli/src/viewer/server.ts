import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ToolgateError } from '@toolgate/core';
import { pageAssets } from './assets.js';
import { allowListFor, refuseHost } from './host-guard.js';
import { contentSecurityPolicy, renderPage } from './html.js';
import { LedgerIndex } from './ledger-index.js';
import { LiveStreams } from './live-streams.js';
import { RecordProofs, type ViewerTrust } from './record-proofs.js';
import { rowsWindow, windowQuery } from './rows-window.js';

/** What {@link serveLedger} takes. */
export interface ServeLedgerOptions {
  /** The address to listen on. Default `127.0.0.1`. */
  host?: string;
  /** The port; 0 (the default) picks a free one. */
  port?: number;
  /** How often the live follow looks for new records, in ms. Default 100. */
  pollMs?: number;
  /** The most pages that may follow the ledger at once (`/events`); one more gets a 503. Default 32. */
  maxStreams?: number;
  /**
   * A signed checkpoint and the keys to check it with (`serve --checkpoint … --pub …`): the page
   * shows each record's inclusion proof against it, checked in the browser.
   */
  trust?: ViewerTrust;
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
 * records live as another process appends them. One verifying follow of the file is shared by
 * every page (the writer's lock is never taken); a page gets the state from `/events` (server-sent
 * events, back-pressured, capped) and its rows a window at a time from `/rows`, read back from
 * the file by offset, so neither the server nor the browser holds the whole ledger. Answers only
 * GET, and only to the `Host` and `Origin` it is bound to (DNS-rebinding protection).
 *
 * @example
 * const viewer = await serveLedger('run.ledger.jsonl');
 * console.log(`open ${viewer.url}`);
 */
export async function serveLedger(file: string, options: ServeLedgerOptions = {}): Promise<LedgerViewer> {
  const pages = await ledgerPages(file, options);
  return listen(
    options,
    (path, request, response) => {
      if (!pages.handle(path, request.method === 'HEAD', response))
        plain(response, 404, `no page at ${path}; the ledger is at /\n`);
    },
    pages.close,
  );
}

/** One ledger's page and its data (`''` the page, `events`, `rows`), to mount at a path of a server. */
export interface LedgerPages {
  /** Answers `path` (relative to where the pages are mounted); false when it is not one of them. */
  handle(path: string, head: boolean, response: ServerResponse): boolean;
  close(): void;
}

/** The page of one ledger file and its live data, from one shared verifying follow. */
export async function ledgerPages(
  file: string,
  options: Pick<ServeLedgerOptions, 'pollMs' | 'maxStreams' | 'trust'> = {},
): Promise<LedgerPages> {
  const assets = await pageAssets();
  const page = renderPage(assets);
  const policy = contentSecurityPolicy(assets);
  const index = LedgerIndex.open(file, options.pollMs === undefined ? {} : { pollMs: options.pollMs });
  const streams = new LiveStreams(
    index,
    options.maxStreams === undefined ? {} : { maxStreams: options.maxStreams },
  );
  const proofs = options.trust && new RecordProofs(file, options.trust);
  return {
    handle(path, head, response) {
      const [route, query = ''] = path.split('?', 2) as [string, string?];
      if (route === '') {
        response.writeHead(200, {
          'Content-Type': 'text/html; charset=utf-8',
          'Content-Security-Policy': policy,
          'X-Content-Type-Options': 'nosniff',
          'Cache-Control': 'no-store',
        });
        response.end(head ? undefined : page);
        return true;
      }
      if (route === 'events') {
        streams.serve(response);
        return true;
      }
      if (route === 'rows') {
        void rows(index, new URLSearchParams(query), response);
        return true;
      }
      if (route === 'proof') {
        void proof(proofs, new URLSearchParams(query), response);
        return true;
      }
      return false;
    },
    close() {
      streams.close();
      index.close();
    },
  };
}

/**
 * Listens on `options.host`/`port` with the viewer's guards (the bound `Host` and `Origin` only;
 * GET and HEAD only) and hands every other request's path, without its leading `/`, to `route`.
 */
export async function listen(
  options: Pick<ServeLedgerOptions, 'host' | 'port'>,
  route: (path: string, request: IncomingMessage, response: ServerResponse) => void,
  closing: () => void,
): Promise<LedgerViewer> {
  const host = options.host ?? '127.0.0.1';
  let allowed = allowListFor(host, options.port ?? 0);
  const server = createServer((request, response) => {
    const refusal = refuseHost(request, allowed);
    if (refusal) return plain(response, 403, `${refusal}\n`);
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.setHeader('Allow', 'GET, HEAD');
      return plain(response, 405, 'this viewer is read-only: only GET and HEAD\n');
    }
    const url = new URL(request.url ?? '/', 'http://viewer');
    route(`${url.pathname.slice(1)}${url.search}`, request, response);
  });
  server.listen(options.port ?? 0, host);
  try {
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
  } catch (error) {
    closing();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  allowed = allowListFor(host, port);
  const shown = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shown}:${port}/`,
    async close() {
      closing();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A plain-text answer (errors, refusals). */
export function plain(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'X-Content-Type-Options': 'nosniff',
  });
  response.end(text);
}

/** `/proof?seq=N`: the record's inclusion proof against the checkpoint, for the page to check; 404 without one. */
async function proof(
  proofs: RecordProofs | undefined,
  parameters: URLSearchParams,
  response: ServerResponse,
): Promise<void> {
  if (!proofs)
    return json(response, 404, { error: 'no checkpoint: serve the ledger with --checkpoint FILE --pub KEY' });
  const seq = parameters.get('seq') ?? '';
  if (!/^(0|[1-9][0-9]{0,14})$/.test(seq))
    return json(response, 400, { error: `seq must be a whole number, not "${seq}"` });
  const answer = await proofs.answer(Number(seq));
  if (!response.destroyed) json(response, 200, answer);
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  response.end(JSON.stringify(body));
}

/** One window of rows as JSON; a ledger changed under the index is a 409 saying so. */
async function rows(
  index: LedgerIndex,
  parameters: URLSearchParams,
  response: ServerResponse,
): Promise<void> {
  let body: string;
  let status = 200;
  try {
    body = JSON.stringify(await rowsWindow(index, windowQuery(parameters)));
  } catch (error) {
    status = ToolgateError.is(error) && error.code === 'LEDGER_CORRUPT' ? 409 : 500;
    body = JSON.stringify({ error: (error as Error).message });
  }
  if (response.destroyed) return;
  response.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  response.end(body);
}
