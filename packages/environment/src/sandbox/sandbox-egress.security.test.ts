import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { HostResolver } from '../fetch/local-fetch.js';
import {
  giveToSandboxUser,
  type LocalServer,
  makeWorld,
  sandboxSkipReason,
  startServer,
  type TempWorld,
} from '../testing/index.js';
import type { EgressDestination } from './egress-proxy.js';
import { SandboxEnvironment } from './index.js';

let world: TempWorld;
let server: LocalServer;
beforeAll(async () => {
  server = await startServer((request, response) =>
    response.end(`hello ${request.headers.host} ${request.url}\n`),
  );
});
afterAll(() => server.close());
beforeEach(() => {
  world = makeWorld();
  giveToSandboxUser(world.root);
});
afterEach(() => world.cleanup());

/** Two loopback names (and one more) for the one local server, as a resolver a test can inject. */
const lookup: HostResolver = async (hostname) =>
  hostname.endsWith('.test') ? [{ address: '127.0.0.1', family: 4 }] : [];

function policyEnvironment(asked: EgressDestination[]) {
  return new SandboxEnvironment({
    root: world.root,
    network: 'policy',
    lookup,
    // Both names may reach loopback, so only the judge tells them apart; internal.test may not.
    allowHosts: ['allowed.test', 'denied.test'],
    egressJudge: (destination) => {
      asked.push(destination);
      return destination.host !== 'denied.test';
    },
  });
}

describe.skipIf(sandboxSkipReason() !== undefined)("SandboxEnvironment network: 'policy'", () => {
  const port = () => new URL(server.origin).port;

  it('lets curl reach an allowed host through the proxy, plain HTTP and CONNECT, and refuses a denied one', async () => {
    const asked: EgressDestination[] = [];
    const before = server.requests.length;
    const result = await policyEnvironment(asked).exec(
      `curl -sS http://allowed.test:${port()}/plain; curl -sS -p http://allowed.test:${port()}/tunnel; ` +
        `curl -sS http://denied.test:${port()}/no; curl -sS -p http://denied.test:${port()}/no`,
      { callId: 'call-42' },
    );
    expect(result.stdout).toContain(`hello allowed.test:${port()} /plain`);
    expect(result.stdout).toContain(`hello allowed.test:${port()} /tunnel`);
    expect(result.stdout).toContain(`refused denied.test:${port()}: refused by policy`);
    expect(server.requests.length).toBe(before + 2);
    expect(asked).toEqual([
      { host: 'allowed.test', port: Number(port()), callId: 'call-42' },
      { host: 'allowed.test', port: Number(port()), callId: 'call-42' },
      { host: 'denied.test', port: Number(port()), callId: 'call-42' },
      { host: 'denied.test', port: Number(port()), callId: 'call-42' },
    ]);
  });

  it('refuses an allowed host at an internal address unless allowHosts names it, as fetch does', async () => {
    const before = server.requests.length;
    const result = await policyEnvironment([]).exec(`curl -sS http://internal.test:${port()}/`);
    expect(result.stdout).toMatch(
      /refused internal\.test:\d+: it resolves to 127\.0\.0\.1, a loopback address/,
    );
    expect(server.requests.length).toBe(before);
  });

  it('has no way out but the proxy: a direct connection fails', async () => {
    const before = server.requests.length;
    const result = await policyEnvironment([]).exec(
      `curl -sS --max-time 10 --noproxy '*' http://127.0.0.1:${port()}/`,
    );
    expect(result.exitCode).not.toBe(0);
    expect(server.requests.length).toBe(before);
  });

  it("judges with the call's own egressJudge when the call brings one", async () => {
    const environment = policyEnvironment([]);
    const asked: string[] = [];
    const result = await environment.exec(`curl -sS http://allowed.test:${port()}/`, {
      egressJudge: ({ host }) => {
        asked.push(host);
        return false;
      },
    });
    expect(asked).toEqual(['allowed.test']);
    expect(result.stdout).toContain('refused by policy');
  });

  it('needs a judge', () => {
    expect(() => new SandboxEnvironment({ root: world.root, network: 'policy' })).toThrow(
      expect.objectContaining({
        code: 'INVALID_DEFINITION',
        message: expect.stringMatching(/needs egressJudge/),
      }),
    );
  });
});
