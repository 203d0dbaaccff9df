import type { ServerResponse } from 'node:http';
import { chainsOf, verifyChains } from '../cli/ledger-directory.js';
import {
  type LedgerPages,
  type LedgerViewer,
  ledgerPages,
  listen,
  plain,
  type ServeLedgerOptions,
} from './server.js';

/**
 * Serves a ledger directory (one chain file per process, as the gateway's `ledger: DIR/` writes):
 * `/` lists every chain with its verification (verified on each visit), and `/chains/NAME/` is that
 * chain's live page, the page `serveLedger` serves for one file. Only the directory's own `*.jsonl`
 * files are served; the same guards as {@link serveLedger} (loopback `Host` and `Origin`, read-only).
 *
 * @example
 * const viewer = await serveLedgerDirectory('./ledgers');
 * console.log(`open ${viewer.url}`);
 */
export async function serveLedgerDirectory(
  directory: string,
  options: ServeLedgerOptions = {},
): Promise<LedgerViewer> {
  const opened = new Map<string, Promise<LedgerPages>>();
  const route = async (path: string, head: boolean, response: ServerResponse): Promise<void> => {
    if (path === '' || path.startsWith('?')) return index(directory, head, response);
    const match = /^chains\/([^/?]+)(\/?)(.*)$/.exec(path);
    const name = match ? decodeURIComponent(match[1]!) : undefined;
    if (!match || !chainsOf(directory).some((chain) => chain.name === name))
      return plain(response, 404, `no page at /${path}; the chains of ${directory} are listed at /\n`);
    if (match[2] === '') {
      response.writeHead(301, { Location: `/chains/${match[1]}/` });
      return void response.end();
    }
    let pages = opened.get(name!);
    if (!pages) {
      pages = ledgerPages(`${directory.replace(/\/$/, '')}/${name}`, options);
      opened.set(name!, pages);
    }
    if (!(await pages).handle(match[3]!, head, response))
      plain(response, 404, `no page at /${path}; this chain is at /chains/${match[1]}/\n`);
  };
  return listen(
    options,
    (path, request, response) => {
      route(path, request.method === 'HEAD', response).catch((error: unknown) => {
        if (!response.headersSent) plain(response, 500, `${(error as Error).message}\n`);
      });
    },
    () => {
      for (const pages of opened.values()) void pages.then((each) => each.close());
    },
  );
}

async function index(directory: string, head: boolean, response: ServerResponse): Promise<void> {
  const statuses = await verifyChains(directory);
  const bad = statuses.filter((status) => !status.ok).length;
  const summary =
    statuses.length === 0
      ? 'no chain files (*.jsonl) yet'
      : bad === 0
        ? `${statuses.length} chains, all verified`
        : `${bad} of ${statuses.length} chains failed verification`;
  const rows = statuses
    .map(
      (status) =>
        `<li class="${status.ok ? 'ok' : 'bad'}"><a href="chains/${encodeURIComponent(status.name)}/">${escapeHtml(status.name)}</a> — ${escapeHtml(status.text)}</li>`,
    )
    .join('\n');
  const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>ledger directory ${escapeHtml(directory)}</title></head>
<body><h1>${escapeHtml(directory)}</h1><p id="summary">${escapeHtml(summary)}</p>
<ul id="chains">
${rows}
</ul></body></html>
`;
  response.writeHead(200, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': "default-src 'none'",
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-store',
  });
  response.end(head ? undefined : page);
}

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (character) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character]!,
  );
}
