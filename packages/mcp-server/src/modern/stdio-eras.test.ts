import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as LegacyStdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { drawOmen } from '@toolgate/builtins';
import { afterEach, describe, expect, it } from 'vitest';
import { cliPath } from '../testing-fixtures/cli.js';

const modernRevision = '2026-07-28';

/** The `_meta` envelope every 2026-07-28 request carries. */
const envelope = {
  'io.modelcontextprotocol/protocolVersion': modernRevision,
  'io.modelcontextprotocol/clientInfo': { name: 'by-hand', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const line = (message: object) => `${JSON.stringify(message)}\n`;

interface Reply {
  id?: number;
  result?: Record<string, unknown> & { structuredContent?: Record<string, unknown> };
  error?: { message: string };
}

// The built `toolgate-mcp` (pnpm --filter @toolgate/mcp-server... build first), spawned as a client spawns it.
describe('toolgate-mcp over stdio answers clients of both eras', { timeout: 120_000 }, () => {
  const closers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close().catch(() => undefined);
  });

  it('a 2.x client negotiating (auto: server/discover first) speaks 2026-07-28 and calls the oracle', async () => {
    const client = new Client({ name: 'modern', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    closers.push(() => client.close());
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [cliPath()], stderr: 'pipe' }),
    );
    expect(client.getNegotiatedProtocolVersion()).toBe(modernRevision);
    expect(client.getServerVersion()?.name).toBe('toolgate-mcp');
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['oracle']);
    const result = await client.callTool({ name: 'oracle', arguments: { seed: 'stdio, modern' } });
    expect(result.structuredContent).toEqual({ omen: drawOmen('stdio, modern') });
  });

  it('a 2.x client pinned to 2026-07-28 gets it; a 1.x client and a 2.x client in legacy mode get 2025-11-25', async () => {
    const pinned = new Client(
      { name: 'pinned', version: '1' },
      { versionNegotiation: { mode: { pin: modernRevision } } },
    );
    closers.push(() => pinned.close());
    await pinned.connect(
      new StdioClientTransport({ command: process.execPath, args: [cliPath()], stderr: 'pipe' }),
    );
    expect(pinned.getNegotiatedProtocolVersion()).toBe(modernRevision);

    const older = new Client({ name: 'older', version: '1' }, { versionNegotiation: { mode: 'legacy' } });
    closers.push(() => older.close());
    await older.connect(
      new StdioClientTransport({ command: process.execPath, args: [cliPath()], stderr: 'pipe' }),
    );
    expect(older.getNegotiatedProtocolVersion()).toBe('2025-11-25');

    const legacy = new LegacyClient({ name: 'legacy', version: '1' });
    const transport = new LegacyStdioClientTransport({
      command: process.execPath,
      args: [cliPath()],
      stderr: 'pipe',
    });
    closers.push(() => legacy.close());
    await legacy.connect(transport); // a 1.x client speaks 2025-11-25 or nothing: its initialize was answered
    for (const client of [pinned, older, legacy]) {
      const result = await client.callTool({ name: 'oracle', arguments: { seed: 'either era' } });
      expect(result.structuredContent).toEqual({ omen: drawOmen('either era') });
    }
  });

  it('answers every modern call piped in before stdin closed, then exits 0', async () => {
    const root = mkdtempSync(join(tmpdir(), 'toolgate-eras-'));
    closers.push(async () => rmSync(root, { recursive: true, force: true }));
    const child: ChildProcessWithoutNullStreams = spawn(
      process.execPath,
      [cliPath(), '--tools', 'shell', '--root', root],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    closers.push(async () => {
      if (child.exitCode === null) child.kill('SIGKILL');
    });
    const replies: Reply[] = [];
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const text of lines) if (text.trim()) replies.push(JSON.parse(text));
    });
    const ids = Array.from({ length: 10 }, (_, index) => index + 2);
    child.stdin.end(
      line({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: envelope } }) +
        ids
          .map((id) =>
            line({
              jsonrpc: '2.0',
              id,
              method: 'tools/call',
              params: { name: 'shell', arguments: { command: `sleep 1; echo done ${id}` }, _meta: envelope },
            }),
          )
          .join(''),
    );
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
    const discovered = replies.find((reply) => reply.id === 1);
    expect(discovered?.result?.supportedVersions).toContain(modernRevision);
    const answered = replies.filter((reply) => ids.includes(reply.id!));
    expect(answered.map((reply) => reply.id).sort((a, b) => a! - b!)).toEqual(ids);
    for (const reply of answered)
      expect(reply.result?.structuredContent).toMatchObject({ exitCode: 0, stdout: `done ${reply.id}\n` });
  }, 90_000);
});
