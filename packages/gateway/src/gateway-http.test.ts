import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Answer,
  binPath,
  configText,
  type HttpGateway,
  scratch,
  sdkClient,
  startHttpGateway,
  textOf,
  tokens,
} from './testing-fixtures/gateway.js';

const inspector = (args: string[]) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(binPath('mcp-inspector'), ['--cli', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, DESKTOP_TOKEN: tokens.desktop, AGENT_TOKEN: tokens.agent },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });

describe('toolgate-gateway over streamable HTTP', { timeout: 180_000 }, () => {
  const place = scratch();
  const config = join(place.dir, 'gateway.yaml');
  let gateway: HttpGateway;
  beforeAll(async () => {
    writeFileSync(config, configText(place.workspace));
    gateway = await startHttpGateway(config);
  }, 120_000);
  afterAll(async () => {
    await gateway?.stop();
    place.remove();
  });
  const connect = (token: string, answer: Answer = 'approve') =>
    gateway.connect(
      token,
      sdkClient(() => answer),
    );

  it("serves two clients with different grants at once: neither sees nor calls the other's tools", async () => {
    const [desktop, agent] = await Promise.all([connect(tokens.desktop), connect(tokens.agent)]);
    const [desktopTools, agentTools] = await Promise.all([desktop.listTools(), agent.listTools()]);
    expect(agentTools.tools.map((tool) => tool.name)).toEqual(['ev__get-sum']);
    expect(desktopTools.tools.map((tool) => tool.name)).toContain('fs__read_text_file');
    expect(desktopTools.tools.map((tool) => tool.name)).not.toContain('ev__get-sum');
    const [sum, read] = await Promise.all([
      agent.callTool({ name: 'ev__get-sum', arguments: { a: 2, b: 3 } }),
      desktop.callTool({
        name: 'fs__read_text_file',
        arguments: { path: join(place.workspace, 'hello.txt') },
      }),
    ]);
    expect(textOf(sum)).toContain('5');
    expect(textOf(read)).toBe('hello from the workspace\n');
    const [agentReads, desktopSums] = await Promise.all([
      agent.callTool({ name: 'fs__read_text_file', arguments: { path: join(place.workspace, 'hello.txt') } }),
      desktop.callTool({ name: 'ev__get-sum', arguments: { a: 2, b: 3 } }),
    ]);
    expect(agentReads.isError).toBe(true);
    expect(textOf(agentReads)).toMatch(
      /^CAPABILITY_VIOLATION: client "agent" is not granted tool "fs__read_text_file" \(clients\.agent\.tools in .*gateway\.yaml: "ev__get-sum"\); add a pattern matching it to clients\.agent\.tools/,
    );
    expect(textOf(agentReads)).not.toContain('hello from');
    expect(desktopSums.isError).toBe(true);
    expect(textOf(desktopSums)).toMatch(/^CAPABILITY_VIOLATION: client "desktop"/);
  });

  it("refuses a request with no token, a wrong one, or another client's session id", async () => {
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    };
    const post = (headers: Record<string, string>, body: unknown = initialize) =>
      fetch(gateway.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
        body: JSON.stringify(body),
      });
    expect((await post({})).status).toBe(401);
    expect((await post({ authorization: 'Bearer not-a-configured-token-at-all' })).status).toBe(401);
    const opened = await post({ authorization: `Bearer ${tokens.desktop}` });
    expect(opened.status).toBe(200);
    const session = opened.headers.get('mcp-session-id')!;
    expect(session).toBeTruthy();
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };
    const hijack = await post({ authorization: `Bearer ${tokens.agent}`, 'mcp-session-id': session }, list);
    expect(hijack.status).toBe(404);
    expect(await hijack.text()).not.toContain('fs__read_text_file');
    // DNS rebinding: a page on another name reaching the loopback port (fetch cannot set Host; node:http can)
    const rebinding = await new Promise<number>((resolve, reject) => {
      const url = new URL(gateway.url);
      const sent = request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: {
            host: 'evil.example',
            authorization: `Bearer ${tokens.desktop}`,
            'content-type': 'application/json',
          },
        },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      sent.on('error', reject);
      sent.end(JSON.stringify(initialize));
    });
    expect(rebinding).toBe(403);
  });

  it('refuses a body over the cap with 413 and Connection: close, so the rest of the upload is never read', async () => {
    const url = new URL(gateway.url);
    const refused = await new Promise<{ status: number; connection: string | undefined }>(
      (resolve, reject) => {
        const sent = request(
          {
            host: url.hostname,
            port: url.port,
            path: url.pathname,
            method: 'POST',
            headers: {
              authorization: `Bearer ${tokens.desktop}`,
              'content-type': 'application/json',
              'content-length': String(2 * 1024 * 1024), // over the default 1 MiB cap; only a little is sent
            },
          },
          (response) => {
            response.resume();
            resolve({ status: response.statusCode ?? 0, connection: response.headers.connection });
            sent.destroy();
          },
        );
        sent.on('error', reject);
        sent.write('{"jsonrpc":"2.0",');
      },
    );
    expect(refused).toEqual({ status: 413, connection: 'close' });
  });

  it('asks over HTTP by elicitation, and denies saying why to a client that cannot be asked', async () => {
    const approving = await connect(tokens.desktop, 'approve');
    const approved = await approving.callTool({ name: 'ev__echo', arguments: { message: 'over http' } });
    expect(approved.isError).toBeFalsy();
    expect(textOf(approved)).toContain('over http');
    const declining = await connect(tokens.desktop, 'decline');
    const declined = await declining.callTool({ name: 'ev__echo', arguments: { message: 'no' } });
    expect(textOf(declined)).toMatch(/^PERMISSION_DENIED: .*the user chose decline/);
    const mute = await connect(tokens.desktop, 'none');
    const denied = await mute.callTool({ name: 'ev__echo', arguments: { message: 'nobody to ask' } });
    expect(denied.isError).toBe(true);
    expect(textOf(denied)).toMatch(/^PERMISSION_DENIED: .*did not declare the MCP elicitation capability/);
  });

  it('is listed and called by the official MCP Inspector CLI over HTTP, with only the grant of its token', async () => {
    const overHttp = (...method: string[]) =>
      inspector([
        gateway.url,
        '--transport',
        'http',
        '--header',
        `Authorization: Bearer ${tokens.agent}`,
        '--method',
        ...method,
      ]);
    const listed = await overHttp('tools/list');
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout).tools.map((tool: { name: string }) => tool.name)).toEqual([
      'ev__get-sum',
    ]);
    const called = await overHttp('tools/call', '--tool-name', 'ev__get-sum', '--tool-arg', 'a=20', 'b=22');
    expect(called.code, called.stderr).toBe(0);
    expect(JSON.stringify(JSON.parse(called.stdout).content)).toContain('42');
  });

  it('is listed and called by the official MCP Inspector CLI over stdio', async () => {
    // a second gateway needs its own ledger (one writer per ledger file, held by a lock);
    // the Inspector takes --config for itself, so the gateway's comes by its variable
    const stdioConfig = join(place.dir, 'stdio.yaml');
    writeFileSync(
      stdioConfig,
      configText(place.workspace).replace('./gateway.ledger.jsonl', './stdio.ledger.jsonl'),
    );
    const gatewayCli = join(__dirname, '..', 'dist', 'cli.js');
    const overStdio = (...method: string[]) =>
      inspector([
        '-e',
        `TOOLGATE_GATEWAY_CONFIG=${stdioConfig}`,
        process.execPath,
        gatewayCli,
        '--method',
        ...method,
      ]);
    const listed = await overStdio('tools/list');
    expect(listed.code, listed.stderr).toBe(0);
    const names = JSON.parse(listed.stdout).tools.map((tool: { name: string }) => tool.name);
    expect(names).toContain('fs__read_text_file');
    expect(names).not.toContain('fs__write_file');
    const called = await overStdio(
      'tools/call',
      '--tool-name',
      'fs__read_text_file',
      '--tool-arg',
      `path=${join(place.workspace, 'hello.txt')}`,
    );
    expect(called.code, called.stderr).toBe(0);
    expect(JSON.parse(called.stdout).content[0].text).toBe('hello from the workspace\n');
  });
});
