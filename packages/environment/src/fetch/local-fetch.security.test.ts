import { ToolgateError } from '@toolgate/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalEnvironment } from '../local-environment.js';
import { MemoryEnvironment } from '../memory/memory-environment.js';
import { type LocalServer, startServer } from '../testing/index.js';
import type { HostResolver } from './local-fetch.js';

let target: LocalServer;
let internal: LocalServer;
let root: string;
beforeAll(async () => {
  internal = await startServer((_request, response) => response.end('internal secret'));
  target = await startServer((request, response) => {
    if (request.url === '/redirect-internal') {
      response.writeHead(302, { location: `http://127.0.0.1:${internal.port}/latest/meta-data` }).end();
    } else if (request.url === '/redirect-localhost') {
      response.writeHead(301, { location: `http://localhost:${internal.port}/` }).end();
    } else if (request.url === '/redirect-name') {
      response.writeHead(307, { location: `http://metadata.public.example:${internal.port}/` }).end();
    } else {
      response.end(`hello from ${request.url}`);
    }
  });
  root = process.cwd();
});
afterAll(async () => {
  await target.close();
  await internal.close();
});

/** Resolves every name to loopback, as a hostile DNS answer would. */
const toLoopback: HostResolver = async () => [{ address: '127.0.0.1', family: 4 }];

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'no error';
  } catch (error) {
    return ToolgateError.is(error) ? error.code : `not a ToolgateError: ${String(error)}`;
  }
}

describe('LocalEnvironment SSRF defences', () => {
  const literals = () => [
    `127.0.0.1:${target.port}`,
    `2130706433:${target.port}`,
    `0x7f000001:${target.port}`,
    `127.1:${target.port}`,
    `0177.0.0.1:${target.port}`,
    `0:${target.port}`,
    `[::1]:${target.port}`,
    `[::ffff:127.0.0.1]:${target.port}`,
    '169.254.169.254',
    '100.64.0.1',
    '[fd00::1]',
    '10.0.0.1',
    '192.168.1.1',
  ];

  it('refuses every spelling of an internal IP literal, before connecting', async () => {
    const environment = new LocalEnvironment({ root });
    const before = target.requests.length;
    for (const host of literals()) {
      expect([host, await codeOf(environment.fetch({ url: `http://${host}/` }))]).toEqual([
        host,
        'NETWORK_REFUSED',
      ]);
    }
    expect(target.requests.length).toBe(before);
  });

  it('refuses a public-looking name that resolves to loopback', async () => {
    const environment = new LocalEnvironment({ root, lookup: toLoopback });
    const before = target.requests.length;
    const error = await environment
      .fetch({ url: `http://innocent.example.com:${target.port}/` })
      .catch((e) => e);
    expect(error).toMatchObject({ code: 'NETWORK_REFUSED' });
    expect(error.message).toContain('127.0.0.1');
    expect(target.requests.length).toBe(before);
  });

  it('refuses localhost through the system resolver', async () => {
    expect(
      await codeOf(new LocalEnvironment({ root }).fetch({ url: `http://localhost:${target.port}/` })),
    ).toBe('NETWORK_REFUSED');
  });

  it('refuses a name when any of its addresses is internal', async () => {
    const mixed: HostResolver = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '127.0.0.1', family: 4 },
    ];
    const environment = new LocalEnvironment({ root, lookup: mixed });
    expect(await codeOf(environment.fetch({ url: `http://mixed.example:${target.port}/` }))).toBe(
      'NETWORK_REFUSED',
    );
  });

  it('opens an internal host only through the allow-list', async () => {
    const environment = new LocalEnvironment({ root, allowHosts: [`127.0.0.1:${target.port}`] });
    const response = await environment.fetch({ url: `${target.origin}/hi` });
    expect(response).toMatchObject({ status: 200, body: 'hello from /hi', redirects: [] });
  });

  it('allows a name on the allow-list even when it resolves to loopback', async () => {
    const environment = new LocalEnvironment({ root, lookup: toLoopback, allowHosts: ['api.test'] });
    expect((await environment.fetch({ url: `http://api.test:${target.port}/named` })).body).toBe(
      'hello from /named',
    );
  });

  it.each([['/redirect-internal'], ['/redirect-localhost'], ['/redirect-name']])(
    'refuses a redirect (%s) from an allowed host to an internal address',
    async (path) => {
      const environment = new LocalEnvironment({
        root,
        lookup: toLoopback,
        allowHosts: [`127.0.0.1:${target.port}`],
      });
      const before = internal.requests.length;
      expect(await codeOf(environment.fetch({ url: `${target.origin}${path}` }))).toBe('NETWORK_REFUSED');
      expect(internal.requests.length).toBe(before);
    },
  );

  it.each([
    ['file:///etc/passwd'],
    ['data:text/plain,hello'],
    ['gopher://127.0.0.1:70/_x'],
    ['ftp://example.com/'],
  ])('refuses the non-http URL %s', async (url) => {
    expect(await codeOf(new LocalEnvironment({ root }).fetch({ url }))).toBe('NETWORK_REFUSED');
  });

  it('does not use a proxy from the environment', async () => {
    const proxy = await startServer((_request, response) => response.end('proxied'));
    process.env.HTTP_PROXY = proxy.origin;
    process.env.http_proxy = proxy.origin;
    try {
      const environment = new LocalEnvironment({ root, allowHosts: [`127.0.0.1:${target.port}`] });
      expect((await environment.fetch({ url: `${target.origin}/direct` })).body).toBe('hello from /direct');
      expect(proxy.requests.length).toBe(0);
    } finally {
      delete process.env.HTTP_PROXY;
      delete process.env.http_proxy;
      await proxy.close();
    }
  });
});

describe('MemoryEnvironment network rules', () => {
  it('applies the same scheme and IP-literal rules before its handler sees a request', async () => {
    const seen: string[] = [];
    const environment = new MemoryEnvironment({
      fetch: (request) => {
        seen.push(request.url);
        return 'ok';
      },
    });
    for (const url of [
      'file:///etc/passwd',
      'http://2130706433/',
      'http://[::1]/',
      'http://169.254.169.254/',
    ]) {
      expect(await codeOf(environment.fetch({ url }))).toBe('NETWORK_REFUSED');
    }
    expect((await environment.fetch({ url: 'https://example.com/x' })).body).toBe('ok');
    expect(seen).toEqual(['https://example.com/x']);
  });
});
