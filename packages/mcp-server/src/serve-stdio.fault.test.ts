import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { oracleTool } from '@toolgate/builtins';
import { defineTool, ToolRegistry } from '@toolgate/core';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMcpServer } from './create-server.js';
import { serveStdio } from './serve-stdio.js';
import { cliPath } from './testing-fixtures/cli.js';

interface Reply {
  id?: number;
  result?: { isError?: boolean; structuredContent?: Record<string, unknown> };
  error?: { message: string };
}

const line = (message: object) => `${JSON.stringify(message)}\n`;
const initialize = line({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
});
const initialized = line({ jsonrpc: '2.0', method: 'notifications/initialized' });
const call = (id: number, name: string, parameters: object) =>
  line({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: parameters } });
const ids = Array.from({ length: 20 }, (_, index) => index + 2);

/** Every JSON-RPC line a stream writes, as it writes them. */
function collect(stream: NodeJS.ReadableStream): Reply[] {
  const replies: Reply[] = [];
  let buffered = '';
  stream.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    const lines = buffered.split('\n');
    buffered = lines.pop()!;
    for (const text of lines) if (text.trim()) replies.push(JSON.parse(text));
  });
  return replies;
}

function exited(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
}

describe('toolgate-mcp over stdio sends every reply before it exits', () => {
  const children: ChildProcessWithoutNullStreams[] = [];
  const roots: string[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
    for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
  });

  it('answers all twenty calls piped in before stdin was closed', async () => {
    const root = mkdtempSync(join(tmpdir(), 'toolgate-drain-'));
    roots.push(root);
    const child = spawn(process.execPath, [cliPath(), '--tools', 'shell', '--root', root], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    children.push(child);
    const replies = collect(child.stdout);
    child.stdin.end(
      initialize +
        initialized +
        ids.map((id) => call(id, 'shell', { command: `sleep 1; echo done ${id}` })).join(''),
    );
    expect(await exited(child)).toBe(0);
    const answered = replies.filter((reply) => ids.includes(reply.id!));
    expect(answered.map((reply) => reply.id).sort((a, b) => a! - b!)).toEqual(ids);
    for (const reply of answered)
      expect(reply.result?.structuredContent).toMatchObject({ exitCode: 0, stdout: `done ${reply.id}\n` });
  }, 90_000);

  it('on SIGTERM, finishes the twenty calls in flight and answers each', async () => {
    const root = mkdtempSync(join(tmpdir(), 'toolgate-drain-'));
    roots.push(root);
    const child = spawn(process.execPath, [cliPath(), '--tools', 'shell', '--root', root], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    children.push(child);
    const replies = collect(child.stdout);
    child.stdin.write(
      initialize +
        initialized +
        ids
          .map((id) => call(id, 'shell', { command: `touch started-${id}; sleep 1; echo done ${id}` }))
          .join(''),
    );
    // Every call has started its command: all twenty are in flight when the signal lands.
    const deadline = Date.now() + 60_000;
    while (!ids.every((id) => existsSync(join(root, `started-${id}`))) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ids.every((id) => existsSync(join(root, `started-${id}`)))).toBe(true);
    child.kill('SIGTERM');
    expect(await exited(child)).toBe(0);
    const answered = replies.filter((reply) => ids.includes(reply.id!));
    expect(answered).toHaveLength(20);
    for (const reply of answered)
      expect(reply.result?.structuredContent).toMatchObject({ exitCode: 0, stdout: `done ${reply.id}\n` });
  }, 90_000);
});

describe('serveStdio grace', () => {
  it('cancels a call still running after the grace and answers it with a TIMEOUT error', async () => {
    const hang = defineTool({
      name: 'hang',
      description: 'Never returns.',
      input: z.object({}),
      run: () => new Promise<never>(() => {}),
    });
    const registry = new ToolRegistry().register(oracleTool()).register(hang);
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const replies = collect(stdout);
    const endpoint = await serveStdio(
      createMcpServer(registry, { tools: ['oracle', 'hang'] }),
      stdin,
      stdout,
      {
        graceMs: 300,
      },
    );
    stdin.end(initialize + initialized + call(2, 'hang', {}) + call(3, 'oracle', { seed: 'quick' }));
    await endpoint.closed;
    expect(replies.find((reply) => reply.id === 3)?.result?.structuredContent).toHaveProperty('omen');
    expect(replies.find((reply) => reply.id === 2)?.result).toMatchObject({
      isError: true,
      structuredContent: { code: 'TIMEOUT', message: expect.stringContaining('was cancelled') },
    });
    expect(replies.filter((reply) => reply.id === 2)).toHaveLength(1);
  });
});
