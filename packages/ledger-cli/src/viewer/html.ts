import { cspHash, type PageAssets } from './assets.js';
import type { ViewerSnapshot } from './snapshot.js';

/**
 * JSON that is safe inside a `<script type="application/json">` element: every `<`, `>` and `&`
 * is escaped, so ledger content can never close the element or open another.
 */
export function embeddedJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * The Content-Security-Policy of the page: only its own inline script and styles run (by hash), no
 * other script, no network but its own server's event stream, images only from data: URLs.
 */
export function contentSecurityPolicy(assets: PageAssets): string {
  return [
    "default-src 'none'",
    `script-src ${cspHash(assets.script)}`,
    `style-src ${cspHash(assets.styles)}`,
    'img-src data:',
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/**
 * The viewer page. With a snapshot, the ledger is embedded (a self-contained static export);
 * without one, the page follows the server's `/events` stream.
 */
export function renderPage(assets: PageAssets, snapshot?: ViewerSnapshot): string {
  if (/<\/script|<!--/i.test(assets.script) || /<\/style/i.test(assets.styles)) {
    throw new Error('the bundled viewer page holds a closing tag; it cannot be inlined');
  }
  const data =
    snapshot === undefined
      ? ''
      : `<script type="application/json" id="ledger-data">${embeddedJson(snapshot)}</script>\n`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(assets)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>toolgate ledger</title>
<style>${assets.styles}</style>
</head>
<body>
<noscript>This page needs JavaScript to show the ledger.</noscript>
${data}<script>${assets.script}</script>
</body>
</html>
`;
}
