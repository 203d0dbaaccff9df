import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalEnvironment } from '../local-environment.js';
import { type LocalServer, startServer } from '../testing/index.js';

let server: LocalServer;
let other: LocalServer;
beforeAll(async () => {
  other = await startServer((request, response) => response.end(JSON.stringify(request.headers)));
  server = await startServer((request, response) => {
    if (request.url === '/huge') response.end('y'.repeat(3_000_000));
    else if (request.url === '/stall') response.writeHead(200).write('partial');
    else if (request.url === '/loop') response.writeHead(302, { location: '/loop' }).end();
    else if (request.url === '/to-other') response.writeHead(302, { location: `${other.origin}/` }).end();
    else if (request.url === '/see-other') response.writeHead(303, { location: '/echo' }).end();
    else if (request.url === '/echo')
      response.end(`${request.method} ${request.headers['content-length'] ?? '-'}`);
    else response.end('ok');
  });
});
afterAll(async () => {
  await server.close();
  await other.close();
});

const environment = (options: { maxResponseBytes?: number; fetchTimeoutMs?: number } = {}) =>
  new LocalEnvironment({
    root: process.cwd(),
    allowHosts: [`127.0.0.1:${server.port}`, `127.0.0.1:${other.port}`],
    ...options,
  });

describe('LocalEnvironment fetch faults', () => {
  it('caps a huge response body and counts the bytes it left out', async () => {
    const response = await environment({ maxResponseBytes: 1000 }).fetch({ url: `${server.origin}/huge` });
    expect(response.body).toBe('y'.repeat(1000));
    expect(response.omittedBytes).toBe(3_000_000 - 1000);
  });

  it('gives up on a response that takes too long, with TIMEOUT', async () => {
    await expect(
      environment({ fetchTimeoutMs: 300 }).fetch({ url: `${server.origin}/stall` }),
    ).rejects.toMatchObject({
      code: 'TIMEOUT',
    });
  });

  it('stops following a redirect loop with NETWORK_FAILED', async () => {
    await expect(environment().fetch({ url: `${server.origin}/loop` })).rejects.toMatchObject({
      code: 'NETWORK_FAILED',
    });
  });

  it('reports a refused connection as NETWORK_FAILED', async () => {
    const closed = await startServer(() => {});
    await closed.close();
    const env = new LocalEnvironment({ root: process.cwd(), allowHosts: [`127.0.0.1:${closed.port}`] });
    await expect(env.fetch({ url: `${closed.origin}/` })).rejects.toMatchObject({ code: 'NETWORK_FAILED' });
  });

  it('drops credentials when a redirect changes origin', async () => {
    const response = await environment().fetch({
      url: `${server.origin}/to-other`,
      headers: { authorization: 'Bearer secret', 'x-kept': 'yes' },
    });
    const headers = JSON.parse(response.body) as Record<string, string>;
    expect(headers.authorization).toBeUndefined();
    expect(headers['x-kept']).toBe('yes');
    expect(response.redirects).toEqual([`${other.origin}/`]);
  });

  it('turns a POST into a GET without a body on 303 See Other', async () => {
    const response = await environment().fetch({
      url: `${server.origin}/see-other`,
      method: 'POST',
      body: 'data',
    });
    expect(response.body).toBe('GET -');
  });
});
