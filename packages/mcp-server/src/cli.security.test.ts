import { request } from 'node:http';
import { networkInterfaces } from 'node:os';
import { describe, expect, it } from 'vitest';
import { cliPath, run, startHttpCli } from './testing-fixtures/cli.js';

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
});

/** POSTs an initialize to 127.0.0.1:port with the given Host header; resolves to the status. */
function statusFor(port: number, host: string, token?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const post = request(
      {
        host: '127.0.0.1',
        port,
        path: '/mcp',
        method: 'POST',
        headers: {
          host,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      },
      (response) => {
        response.resume();
        response.once('end', () => resolve(response.statusCode ?? 0));
      },
    );
    post.once('error', reject);
    post.end(initialize);
  });
}

const ownIpv4 = () =>
  Object.values(networkInterfaces())
    .flatMap((entries) => entries ?? [])
    .filter((entry) => entry.family === 'IPv4')
    .map((entry) => entry.address);

describe('toolgate-mcp --http beyond loopback', () => {
  it('refuses to start on a non-loopback address without a token, and says how to add one (exit 2)', async () => {
    for (const host of ['0.0.0.0', '::', '192.0.2.1']) {
      const result = await run(process.execPath, [cliPath(), '--http', '--host', host, '--tools', 'oracle']);
      expect(result).toMatchObject({ code: 2, stdout: '' });
      expect(result.stderr).toBe(
        `toolgate-mcp: --host ${host} is not loopback, so anyone who can reach it could call oracle without a token; ` +
          `require one: TOOLGATE_TOKEN=$(openssl rand -hex 32) toolgate-mcp --http --host ${host} --token-env TOOLGATE_TOKEN ` +
          '(clients send "Authorization: Bearer <token>"), or pass --no-auth to serve it unauthenticated anyway\n',
      );
    }
  });

  it('starts on a wildcard address with --no-auth, warning on stderr, and then serves without a token', async () => {
    const server = await startHttpCli(['--host', '0.0.0.0', '--no-auth']);
    try {
      expect(server.stderr()).toContain(
        'toolgate-mcp: warning: --no-auth: serving oracle on 0.0.0.0 without a token; anyone who can reach the port can call them\n',
      );
      expect(await statusFor(server.port, `127.0.0.1:${server.port}`)).toBe(200);
    } finally {
      await server.stop();
    }
  });

  it('refuses --no-auth together with --token-env', async () => {
    const result = await run(
      process.execPath,
      [cliPath(), '--http', '--host', '0.0.0.0', '--no-auth', '--token-env', 'T'],
      { env: { ...process.env, T: 'secret' } },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'toolgate-mcp: --no-auth and --token-env T contradict each other; pass one of them\n',
    );
  });

  it("on 0.0.0.0 answers a Host naming each of the machine's own addresses, still refuses other names and a missing token", async () => {
    const token = 'wildcard-secret';
    const server = await startHttpCli(['--host', '0.0.0.0', '--token-env', 'WILDCARD_TOKEN'], {
      ...process.env,
      WILDCARD_TOKEN: token,
    });
    try {
      const addresses = ownIpv4();
      expect(addresses).toContain('127.0.0.1');
      for (const address of addresses) {
        expect([address, await statusFor(server.port, `${address}:${server.port}`, token)]).toEqual([
          address,
          200,
        ]);
      }
      expect(await statusFor(server.port, `localhost:${server.port}`, token)).toBe(200);
      expect(await statusFor(server.port, `attacker.example:${server.port}`, token)).toBe(403);
      expect(await statusFor(server.port, `127.0.0.1:${server.port}`)).toBe(401);
      expect(server.stderr()).toContain(
        `toolgate-mcp: accepting Host 0.0.0.0:${server.port}, 127.0.0.1:${server.port}, localhost:${server.port}`,
      );
      expect(server.stderr()).toContain(`for a name, add it: --allowed-hosts myhost.example:${server.port}`);
    } finally {
      await server.stop();
    }
  });
});
