import { LocalEnvironment, MemoryEnvironment } from '@toolgate/environment';
import { type LocalServer, startServer } from '@toolgate/environment/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinAgent, codeOf, outputOf } from './testing-fixtures/agent.js';

let server: LocalServer;
let internal: LocalServer;
beforeAll(async () => {
  internal = await startServer((_request, response) => response.end('internal'));
  server = await startServer((request, response) => {
    if (request.url === '/redirect') {
      response.writeHead(302, { location: `http://localhost:${internal.port}/admin` }).end();
    } else response.end('public page');
  });
});
afterAll(async () => {
  await server.close();
  await internal.close();
});

const fetchWith = (environment: LocalEnvironment | MemoryEnvironment, url: string) =>
  builtinAgent(environment).callTool('fetch', { url });

describe('fetch tool SSRF defences (LocalEnvironment)', () => {
  it.each([
    ['127.0.0.1'],
    ['2130706433'],
    ['0x7f000001'],
    ['127.1'],
    ['0177.0.0.1'],
    ['0'],
    ['[::1]'],
    ['[::ffff:127.0.0.1]'],
    ['169.254.169.254'],
    ['100.64.0.1'],
    ['[fd00::1]'],
  ])('refuses http://%s', async (host) => {
    const port =
      host.includes('169.254') || host.includes('100.64') || host.includes('fd00') ? '' : `:${server.port}`;
    const before = server.requests.length;
    const result = await fetchWith(new LocalEnvironment({ root: process.cwd() }), `http://${host}${port}/`);
    expect(codeOf(result)).toBe('NETWORK_REFUSED');
    expect(server.requests.length).toBe(before);
  });

  it('refuses a name resolving to loopback', async () => {
    const environment = new LocalEnvironment({
      root: process.cwd(),
      lookup: async () => [{ address: '127.0.0.1', family: 4 }],
    });
    expect(codeOf(await fetchWith(environment, `http://www.example.org:${server.port}/`))).toBe(
      'NETWORK_REFUSED',
    );
  });

  it('refuses a redirect from the allowed first hop to an internal address', async () => {
    const environment = new LocalEnvironment({
      root: process.cwd(),
      allowHosts: [`127.0.0.1:${server.port}`],
    });
    expect(outputOf(await fetchWith(environment, `${server.origin}/`)).body).toBe('public page');
    const before = internal.requests.length;
    expect(codeOf(await fetchWith(environment, `${server.origin}/redirect`))).toBe('NETWORK_REFUSED');
    expect(internal.requests.length).toBe(before);
  });
});

describe.each([
  ['LocalEnvironment', () => new LocalEnvironment({ root: process.cwd() })],
  ['MemoryEnvironment', () => new MemoryEnvironment({ fetch: () => 'served' })],
])('fetch tool over %s refuses non-http schemes', (_name, make) => {
  it.each([['file:///etc/passwd'], ['data:text/plain,hi'], ['gopher://127.0.0.1:70/_x']])(
    '%s',
    async (url) => {
      expect(codeOf(await fetchWith(make(), url))).toBe('NETWORK_REFUSED');
    },
  );
});
