import { ToolgateError } from '@toolgate/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RedirectHop } from '../environment.js';
import { LocalEnvironment } from '../local-environment.js';
import { MemoryEnvironment } from '../memory/memory-environment.js';
import { type LocalServer, startServer } from '../testing/http-server.js';

let first: LocalServer;
let second: LocalServer;
beforeAll(async () => {
  second = await startServer((_request, response) => response.end('second'));
  first = await startServer((request, response) => {
    if (request.url === '/go') response.writeHead(307, { location: `${second.origin}/landed` }).end();
    else response.end('first');
  });
});
afterAll(async () => {
  await first.close();
  await second.close();
});

const environment = () =>
  new LocalEnvironment({
    root: process.cwd(),
    allowHosts: [`127.0.0.1:${first.port}`, `127.0.0.1:${second.port}`],
  });

describe('fetch tells beforeRedirect every hop before contacting it', () => {
  it('ends the fetch with the error beforeRedirect throws, and the target gets nothing', async () => {
    const hops: RedirectHop[] = [];
    const before = second.requests.length;
    const refused = environment().fetch({
      url: `${first.origin}/go`,
      method: 'POST',
      body: 'form',
      beforeRedirect: (hop) => {
        hops.push(hop);
        throw new ToolgateError('PERMISSION_DENIED', `not ${hop.url}`);
      },
    });
    await expect(refused).rejects.toMatchObject({
      code: 'PERMISSION_DENIED',
      message: `not ${second.origin}/landed`,
    });
    expect(hops).toEqual([{ url: `${second.origin}/landed`, hostname: '127.0.0.1', number: 1 }]);
    expect(second.requests.length).toBe(before);
  });

  it('follows the hop once beforeRedirect returns', async () => {
    const response = await environment().fetch({ url: `${first.origin}/go`, beforeRedirect: async () => {} });
    expect(response).toMatchObject({ body: 'second', redirects: [`${second.origin}/landed`] });
  });
});

describe('fetch refuses a Host header', () => {
  it.each([
    ['LocalEnvironment', environment],
    ['MemoryEnvironment', () => new MemoryEnvironment({ fetch: () => 'served' })],
  ])('over %s, before anything is sent', async (_name, make) => {
    const before = first.requests.length;
    await expect(
      make().fetch({ url: `${first.origin}/`, headers: { HoSt: 'example.com' } }),
    ).rejects.toMatchObject({
      code: 'INVALID_PARAMETERS',
      message: expect.stringContaining('"HoSt" is refused'),
    });
    expect(first.requests.length).toBe(before);
  });
});
