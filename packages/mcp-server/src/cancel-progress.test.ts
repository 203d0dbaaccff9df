import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

let dir: string;
let client: Client | undefined;
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
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [join(import.meta.dirname, 'testing-fixtures', 'patient-server.mjs'), dir],
      stderr: 'ignore',
    }),
  );
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
    await until(() => existsSync(join(dir, 'aborted')), "the tool's abort");
    expect(readFileSync(join(dir, 'aborted'), 'utf8')).toBe('CANCELLED');
    // the server goes on serving the same connection
    expect((await mcp.callTool({ name: 'count', arguments: { steps: 1 } })).structuredContent).toEqual({
      counted: 1,
    });
  });

  it('sends the tool progress as notifications/progress before the result, when the client gave a token', async () => {
    const mcp = await connect();
    const seen: Progress[] = [];
    let resulted = false;
    const late: Progress[] = [];
    const result = await mcp.callTool({ name: 'count', arguments: { steps: 3 } }, undefined, {
      onprogress: (progress) => (resulted ? late : seen).push(progress),
    });
    resulted = true;
    expect(result.structuredContent).toEqual({ counted: 3 });
    expect(seen).toEqual([
      { progress: 1, total: 3, message: 'step 1' },
      { progress: 2, total: 3, message: 'step 2' },
      { progress: 3, total: 3, message: 'step 3' },
    ]);
    expect(late).toEqual([]);
  });
});
