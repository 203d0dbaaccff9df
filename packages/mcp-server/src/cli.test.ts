import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { drawOmen } from '@toolgate/builtins';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { cliPath, run, startHttpCli } from './testing-fixtures/cli.js';

function exited(
  child: ReturnType<typeof spawn>,
): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve({ code: child.exitCode, signal: null });
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
}

describe('toolgate-mcp', () => {
  const clients: Client[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });
  const stdioClient = async (args: string[]) => {
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [cliPath(), ...args], stderr: 'pipe' }),
    );
    clients.push(client);
    return client;
  };

  it('serves the oracle over stdio by default', async () => {
    const client = await stdioClient([]);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['oracle']);
    const result = await client.callTool({ name: 'oracle', arguments: { seed: 'cli' } });
    expect(result.structuredContent).toEqual({ omen: drawOmen('cli') });
  });

  it('serves the file tools of --root, and only those --tools names', async () => {
    const root = mkdtempSync(join(tmpdir(), 'toolgate-mcp-root-'));
    onTestFinished(() => rmSync(root, { recursive: true, force: true }));
    writeFileSync(join(root, 'note.txt'), 'hello from the workspace\n');
    const client = await stdioClient(['--tools', 'read_file,list_dir', '--root', root]);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['read_file', 'list_dir']);
    const read = await client.callTool({ name: 'read_file', arguments: { path: 'note.txt' } });
    expect(read.isError).toBeFalsy();
    expect(JSON.stringify(read.structuredContent)).toContain('hello from the workspace');
    const outside = await client.callTool({ name: 'read_file', arguments: { path: '../../etc/passwd' } });
    expect(outside).toMatchObject({ isError: true, structuredContent: { code: 'PATH_OUTSIDE_ROOT' } });
    const shell = await client.callTool({ name: 'shell', arguments: { command: 'id' } });
    expect(shell).toMatchObject({ isError: true, structuredContent: { code: 'UNKNOWN_TOOL' } });
    expect((shell.structuredContent as { message: string }).message).toBe(
      'MCP server "toolgate-mcp" does not serve a tool named "shell"; it serves: read_file, list_dir (its tools/list)',
    );
  });

  it('exits 0 when stdin ends', async () => {
    const child = spawn(process.execPath, [cliPath()], { stdio: ['pipe', 'ignore', 'ignore'] });
    child.stdin.end();
    expect(await exited(child)).toEqual({ code: 0, signal: null });
  });

  it('exits 0 on SIGTERM over stdio, with stdin still open', async () => {
    const child = spawn(process.execPath, [cliPath()], { stdio: ['pipe', 'pipe', 'ignore'] });
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`,
    );
    await new Promise((resolve) => child.stdout.once('data', resolve));
    child.kill('SIGTERM');
    expect(await exited(child)).toEqual({ code: 0, signal: null });
  });

  it('prints its URL in HTTP mode and exits 0 on SIGTERM', async () => {
    const http = await startHttpCli();
    expect(http.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(await http.stop()).toBe(0);
  });

  it('explains bad arguments and exits 2', async () => {
    const unknownTool = await run(process.execPath, [cliPath(), '--tools', 'oracle,teleport']);
    expect(unknownTool.code).toBe(2);
    expect(unknownTool.stderr).toContain('unknown tool "teleport"');
    const noRoot = await run(process.execPath, [cliPath(), '--tools', 'read_file']);
    expect(noRoot.stderr).toContain('pass --root DIR');
    const badPort = await run(process.execPath, [cliPath(), '--http', '--port', 'eighty']);
    expect(badPort.stderr).toContain('--port must be a whole number');
    const badFlag = await run(process.execPath, [cliPath(), '--frobnicate']);
    expect(badFlag.code).toBe(2);
    expect(badFlag.stderr).toContain('Usage: toolgate-mcp');
    const noToken = await run(process.execPath, [cliPath(), '--http', '--token-env', 'NOT_SET_ANYWHERE']);
    expect(noToken.stderr).toContain('NOT_SET_ANYWHERE: that environment variable is not set');
  });

  it('echoes a negative --port and says what is expected, instead of "argument is ambiguous"', async () => {
    for (const args of [['--port', '-1'], ['--port=-1']]) {
      const result = await run(process.execPath, [cliPath(), '--http', ...args]);
      expect(result).toMatchObject({ code: 2, stdout: '' });
      expect(result.stderr).toBe('toolgate-mcp: --port must be a whole number from 0 to 65535, not "-1"\n');
    }
    const missing = await run(process.execPath, [cliPath(), '--http', '--port', '--tools', 'oracle']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(
      'toolgate-mcp: --port needs a value, but the next argument is the option --tools\n',
    );
  });

  it('names --host when it is not an address, before looking anything up', async () => {
    const result = await run(process.execPath, [cliPath(), '--http', '--host', '256.1.1.1']);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toBe(
      'toolgate-mcp: --host 256.1.1.1 is not a valid IPv4 address (four numbers from 0 to 255); ' +
        'give an address of this machine, such as 127.0.0.1 (loopback) or 0.0.0.0 (every interface)\n',
    );
  });

  it('names --host when no such host name resolves', async () => {
    // .invalid never resolves (RFC 2606); without a network the lookup fails as EAI_AGAIN instead.
    const result = await run(
      process.execPath,
      [cliPath(), '--http', '--host', 'no-such-host.invalid', '--token-env', 'CLI_TEST_TOKEN'],
      { env: { ...process.env, CLI_TEST_TOKEN: 'secret' } },
    );
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toMatch(
      /^toolgate-mcp: --host no-such-host\.invalid: no such address or host name \((ENOTFOUND|EAI_AGAIN|EAI_NONAME)\); give an address of this machine, such as 127\.0\.0\.1 or 0\.0\.0\.0\n$/,
    );
  }, 120_000);

  it('names --host when it is not an address of this machine, and --port when it is taken', async () => {
    const env = { ...process.env, CLI_TEST_TOKEN: 'secret' };
    // 203.0.113.0/24 is TEST-NET-3: documentation only, never a machine's own address.
    const foreign = await run(
      process.execPath,
      [cliPath(), '--http', '--host', '203.0.113.77', '--token-env', 'CLI_TEST_TOKEN'],
      { env },
    );
    expect(foreign.code).toBe(2);
    expect(foreign.stderr).toMatch(
      /^toolgate-mcp: --host 203\.0\.113\.77 is not an address of this machine \(EADDRNOTAVAIL\)/,
    );
    const first = await startHttpCli();
    try {
      const taken = await run(process.execPath, [cliPath(), '--http', '--port', String(first.port)]);
      expect(taken.code).toBe(2);
      expect(taken.stderr).toBe(
        `toolgate-mcp: --port ${first.port} is already in use on 127.0.0.1 (EADDRINUSE); pick another port, or 0 for any free one\n`,
      );
    } finally {
      await first.stop();
    }
  });

  it('prints usage with --help', async () => {
    const help = await run(process.execPath, [cliPath(), '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--token-env NAME');
  });
});
