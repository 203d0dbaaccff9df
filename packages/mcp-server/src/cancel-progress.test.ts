import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { JSONRPCMessage, Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

let dir: string;
let client: Client | undefined;
/** Every message the client's transport took off the wire, in order, before the SDK dispatched it. */
let wire: JSONRPCMessage[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'patient-server-'));
});
afterEach(async () => {
  await client?.close();
  client = undefined;
  rmSync(dir, { recursive: true, force: true });
});

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !condition(); waited += 20) {
    if (waited > 20_000) throw new Error(`${what} did not happen within 20 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A raw SDK client over stdio to createMcpServer in a child process (the built package). */
async function connect(): Promise<Client> {
  client = new Client({ name: 'raw', version: '1' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(import.meta.dirname, 'testing-fixtures', 'patient-server.mjs'), dir],
    stderr: 'ignore',
  });
  await client.connect(transport);
  wire = [];
  const dispatch = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage) => {
    wire.push(message);
    dispatch?.(message);
  };
  return client;
}

describe('toolgate-mcp and a client that cancels or asks for progress', () => {
  it("aborts the tool's signal inside the server when the client cancels the request", async () => {
    const mcp = await connect();
    const controller = new AbortController();
    const call = mcp.callTool({ name: 'hang', arguments: {} }, undefined, { signal: controller.signal });
    const outcome = call.then(
      () => 'answered',
      () => 'rejected',
    );
    await until(() => existsSync(join(dir, 'started')), 'the start');
    controller.abort('the user left');
    expect(await outcome).toBe('rejected');
    // the file is created before its text is written: wait for the text, not the name
    await until(
      () => existsSync(join(dir, 'aborted')) && readFileSync(join(dir, 'aborted'), 'utf8') !== '',
      "the tool's abort",
    );
    expect(readFileSync(join(dir, 'aborted'), 'utf8')).toBe('CANCELLED');
    // the server goes on serving the same connection
    expect((await mcp.callTool({ name: 'count', arguments: { steps: 1 } })).structuredContent).toEqual({
      counted: 1,
    });
  });

  it('sends the tool progress as notifications/progress before the result, when the client gave a token', async () => {
    const mcp = await connect();
    // a progress handler is what makes the SDK client send a progressToken
    const result = await mcp.callTool({ name: 'count', arguments: { steps: 3 } }, undefined, {
      onprogress: () => {},
    });
    expect(result.structuredContent).toEqual({ counted: 3 });
    // The order is the server's, read off the wire: the SDK client runs progress handlers a microtask
    // after it reads them but settles the response at once, so on a loaded machine the last report can
    // reach `onprogress` after `callTool` resolved — or never, when the response settled first and
    // took the request's progress handler with it (mcp-client's NotificationGuard covers this for our
    // own client; see its test). Here the server's order and reports are what is under test, so both
    // are read off the wire.
    const order = wire.map((message) =>
      'method' in message && message.method === 'notifications/progress'
        ? (message.params as { message?: string }).message
        : 'id' in message && 'result' in message
          ? 'result'
          : 'other',
    );
    expect(order.filter((entry) => entry !== 'other')).toEqual(['step 1', 'step 2', 'step 3', 'result']);
    const reports = wire.flatMap((message) =>
      'method' in message && message.method === 'notifications/progress'
        ? [
            (({ progressToken: _token, ...report }) => report)(
              message.params as Progress & { progressToken: unknown },
            ),
          ]
        : [],
    );
    expect(reports).toEqual([
      { progress: 1, total: 3, message: 'step 1' },
      { progress: 2, total: 3, message: 'step 2' },
      { progress: 3, total: 3, message: 'step 3' },
    ]);
  });
});
