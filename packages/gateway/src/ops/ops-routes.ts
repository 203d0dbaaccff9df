import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Gateway } from '../gateway.js';

/**
 * Answers `/healthz` and `/metrics` on the gateway's HTTP listener (after its Host and Origin
 * checks, before any token: a probe or a scraper holds none). `/healthz` is 200 with every upstream
 * up, else 503, with a JSON body naming each; `/metrics` is Prometheus text. Returns false for
 * any other path.
 */
export function answerOps(
  gateway: Gateway,
  request: IncomingMessage,
  response: ServerResponse,
  sessions: () => ReadonlyMap<string, number>,
): boolean {
  const path = new URL(request.url ?? '/', 'http://localhost').pathname;
  if (path !== '/healthz' && path !== '/metrics') return false;
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' });
    response.end(`${path} answers GET only\n`);
    return true;
  }
  const upstreams = gateway.resolver.upstreams();
  if (path === '/healthz') {
    const up = upstreams.every((upstream) => upstream.open);
    response.writeHead(up ? 200 : 503, { 'Content-Type': 'application/json' });
    response.end(
      JSON.stringify({
        status: up ? 'ok' : 'degraded',
        upstreams: upstreams.map(({ server, open }) => ({ name: server, up: open })),
      }),
    );
    return true;
  }
  response.writeHead(200, { 'Content-Type': 'text/plain; version=0.0.4; charset=utf-8' });
  response.end(gateway.metrics.render({ sessions: sessions(), upstreams }));
  return true;
}
