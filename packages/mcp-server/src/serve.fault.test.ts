import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { oracleTool } from '@toolgate/builtins';
import { ToolRegistry } from '@toolgate/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createMcpServer } from './create-server.js';
import { type HttpEndpoint, serveHttp } from './serve-http.js';
import { cliPath } from './testing-fixtures/cli.js';

const line = (message: object) => `${JSON.stringify(message)}\n`;
const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
};
const call = (id: number, seed: unknown) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'oracle', arguments: { seed } },
});

function post(endpoint: HttpEndpoint, body: string): Promise<{ status: number; body: string }> {
  const url = new URL(endpoint.url);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => {
          text += chunk.toString('utf8');
        });
        response.on('end', () => resolve({ status: response.statusCode!, body: text }));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

describe('serving through faults', () => {
  let endpoint: HttpEndpoint | undefined;
  afterEach(async () => {
    await endpoint?.close();
    endpoint = undefined;
  });

  it('over stdio, skips a junk line on stdin and keeps serving', async () => {
    const child = spawn(process.execPath, [cliPath()], { stdio: ['pipe', 'pipe', 'ignore'] });
    const answers: Array<{ id?: unknown; error?: unknown; result?: { structuredContent?: unknown } }> = [];
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const text of lines) answers.push(JSON.parse(text));
    });
    child.stdin.write(line(initialize));
    child.stdin.write('this is not json\n');
    child.stdin.write(line(call(2, 'still here')));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if (answers.some((answer) => answer.id === 2)) {
          clearInterval(poll);
          resolve();
        }
      }, 10);
    });
    child.stdin.end();
    expect(await exited).toBe(0);
    expect(answers.find((answer) => answer.id === 2)?.result?.structuredContent).toHaveProperty('omen');
  });

  it('over HTTP, survives a client that hangs up mid-upload', async () => {
    const registry = new ToolRegistry().register(oracleTool());
    endpoint = await serveHttp(() => createMcpServer(registry, { tools: ['oracle'] }));
    const url = new URL(endpoint.url);
    await new Promise<void>((resolve) => {
      const outgoing = request({
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': 10_000 },
      });
      outgoing.on('error', () => resolve());
      outgoing.write('{"jsonrpc":"2.0",');
      setTimeout(() => {
        outgoing.destroy();
        resolve();
      }, 20);
    });
    const answer = await post(endpoint, JSON.stringify(call(3, 'after')));
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).result.structuredContent).toHaveProperty('omen');
  });

  it('over HTTP, answers JSON that is not JSON-RPC with a client error and keeps serving', async () => {
    const registry = new ToolRegistry().register(oracleTool());
    endpoint = await serveHttp(() => createMcpServer(registry, { tools: ['oracle'] }));
    const junk = await post(endpoint, JSON.stringify({ hello: 'world' }));
    expect(junk.status).toBeGreaterThanOrEqual(400);
    expect(junk.status).toBeLessThan(500);
    expect((await post(endpoint, JSON.stringify(call(4, 'ok')))).status).toBe(200);
  });
});
