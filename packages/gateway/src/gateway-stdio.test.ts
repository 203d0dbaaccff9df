import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CallToolResultSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { callerTimeKey } from '@toolgate/mcp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replayGatewayLedger } from './replay.js';
import {
  type Answer,
  binPath,
  cliPath,
  configText,
  eventually,
  type StdioGateway,
  scratch,
  startStdioGateway,
  textOf,
} from './testing-fixtures/gateway.js';

describe('toolgate-gateway over stdio, with a raw SDK client', { timeout: 120_000 }, () => {
  const place = scratch();
  const config = join(place.dir, 'gateway.yaml');
  let answer: Answer = 'approve';
  let gateway: StdioGateway;
  let upstreamPid = 0;
  beforeAll(async () => {
    writeFileSync(config, configText(place.workspace));
    gateway = await startStdioGateway(config, () => answer);
  }, 120_000);
  afterAll(async () => {
    await gateway?.close();
    if (!process.env.KEEP_SCRATCH) place.remove();
  });

  it('reports its package version in the MCP handshake', () => {
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    expect(gateway.client.getServerVersion()).toMatchObject({ name: 'toolgate-gateway', version });
  });

  it('lists only the tools the stdio client is granted', async () => {
    const { tools } = await gateway.client.listTools();
    const names = tools.map((tool) => tool.name).sort();
    expect(names).toEqual(
      [
        'ev__echo',
        'ev__get-tiny-image',
        'ev__trigger-long-running-operation',
        'fs__list_directory',
        'fs__read_text_file',
        'mine__hang',
        'mine__junk',
        'mine__note',
        'mine__pid',
        'mine__rewrite',
      ].sort(),
    );
  });

  it('runs an allowed call on the real filesystem server', async () => {
    const result = await gateway.client.callTool({
      name: 'fs__read_text_file',
      arguments: { path: join(place.workspace, 'hello.txt') },
    });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe('hello from the workspace\n');
  });

  it('refuses a tool outside the grant, before any upstream is asked', async () => {
    const result = await gateway.client.callTool({
      name: 'fs__write_file',
      arguments: { path: join(place.workspace, 'x'), content: 'x' },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^CAPABILITY_VIOLATION: .*desktop.*fs__write_file/);
  });

  it('refuses a path policy denies, even written to climb out of the workspace and back', async () => {
    for (const path of [
      join(place.workspace, 'secret', 'key.txt'),
      `${place.workspace}/hello/../secret/key.txt`,
    ]) {
      const result = await gateway.client.callTool({ name: 'fs__read_text_file', arguments: { path } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/^PERMISSION_DENIED: .*secrets stay put/);
      expect(textOf(result)).not.toContain('do not read me');
    }
  });

  it('asks the user by elicitation when policy says ask: approved runs, declined is refused', async () => {
    answer = 'approve';
    const approved = await gateway.client.callTool({ name: 'ev__echo', arguments: { message: 'hi there' } });
    expect(approved.isError).toBeFalsy();
    expect(textOf(approved)).toContain('hi there');
    answer = 'decline';
    const declined = await gateway.client.callTool({ name: 'ev__echo', arguments: { message: 'hi again' } });
    expect(declined.isError).toBe(true);
    expect(textOf(declined)).toMatch(/^PERMISSION_DENIED: .*the user chose decline/);
    answer = 'approve';
  });

  it('passes an image from server-everything through intact', async () => {
    const result = await gateway.client.callTool({ name: 'ev__get-tiny-image', arguments: {} });
    expect(result.isError).toBeFalsy();
    const image = (result.content as Array<{ type: string; data?: string; mimeType?: string }>).find(
      (block) => block.type === 'image',
    );
    expect(image?.mimeType).toBe('image/png');
    expect(
      Buffer.from(image?.data ?? '', 'base64')
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
  });

  it('passes progress through from the upstream', async () => {
    // Read off the wire: the SDK client drops a report that arrives in the same chunk as the
    // response (the response takes the request's progress handler first), as it may under load.
    const seen: number[] = [];
    const dispatch = gateway.transport.onmessage;
    gateway.transport.onmessage = (message: JSONRPCMessage) => {
      if ('method' in message && message.method === 'notifications/progress')
        seen.push((message.params as { progress: number }).progress);
      dispatch?.(message);
    };
    try {
      const result = await gateway.client.request(
        {
          method: 'tools/call',
          params: { name: 'ev__trigger-long-running-operation', arguments: { duration: 0.2, steps: 3 } },
        },
        CallToolResultSchema,
        { onprogress: () => {}, timeout: 60_000 },
      );
      expect(result.isError).toBeFalsy();
    } finally {
      gateway.transport.onmessage = dispatch;
    }
    expect(seen).toEqual([1, 2, 3]);
  });

  it('ends a call by the time its client says it waits (callerTimeKey in its _meta), within its own budget', async () => {
    const result = await gateway.client.callTool({
      name: 'ev__trigger-long-running-operation',
      arguments: { duration: 60, steps: 2 },
      _meta: { [callerTimeKey]: 1500 },
    });
    expect(result.isError).toBe(true);
    const within = /^TIMEOUT: tool "ev__trigger-long-running-operation" did not finish within (\d+) ms/.exec(
      textOf(result),
    );
    // the budget is what is left of the caller's 1,500 ms when the call starts: on a busy machine the
    // request may wait hundreds of ms before it does, so only the bound is certain
    expect(Number(within?.[1])).toBeGreaterThan(0);
    expect(Number(within?.[1])).toBeLessThanOrEqual(1500);
  });

  it('withholds an upstream tool whose description changed until it is approved, then serves it', async () => {
    const before = await gateway.client.callTool({ name: 'mine__note', arguments: { text: 'one' } });
    expect(textOf(before)).toBe('note: one');
    await gateway.client.callTool({ name: 'mine__rewrite', arguments: {} });
    await eventually(
      async () => !(await gateway.client.listTools()).tools.some((tool) => tool.name === 'mine__note'),
    );
    const refused = await gateway.client.callTool({ name: 'mine__note', arguments: { text: 'two' } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/^TOOL_CHANGED: .*mine__note.*"mine"/);
    // the refusal names the gateway's fix, not the library's
    expect(textOf(refused)).toMatch(/toolgate-gateway approve mine__note --config \S*gateway\.yaml/);
    expect(textOf(refused)).not.toContain('resolver.approve');
    expect(gateway.stderr()).toContain('toolgate-gateway approve mine__note');
    // the operator approves what the ledger reported; the command tells the running gateway (SIGHUP)
    const approved = execFileSync(process.execPath, [
      cliPath,
      'approve',
      'mine__note',
      '--config',
      config,
      '--pid',
      String(gateway.transport.pid),
    ]);
    expect(approved.toString()).toMatch(/^approved mine__note \(fingerprint sha256:[0-9a-f]{64}\)/);
    expect(readFileSync(config, 'utf8')).toMatch(/approve:\n {2}mine__note: sha256:[0-9a-f]{64}/);
    expect(readFileSync(config, 'utf8')).toContain('# a gateway for the tests');
    await eventually(async () =>
      (await gateway.client.listTools()).tools.some((tool) => tool.name === 'mine__note'),
    );
    const listed = (await gateway.client.listTools()).tools.find((tool) => tool.name === 'mine__note');
    expect(listed?.description).toContain('send every file');
    expect(textOf(await gateway.client.callTool({ name: 'mine__note', arguments: { text: 'three' } }))).toBe(
      'note: three',
    );
  });

  it("passes a client's cancellation through to the upstream call, and records it as CANCELLED", async () => {
    const controller = new AbortController();
    const cancelled = gateway.client
      .request(
        { method: 'tools/call', params: { name: 'mine__hang', arguments: {} } },
        CallToolResultSchema,
        {
          onprogress: () => controller.abort('the user pressed stop'),
          signal: controller.signal,
          timeout: 60_000,
        },
      )
      .then(
        () => 'answered',
        () => 'cancelled',
      );
    expect(await cancelled).toBe('cancelled');
    const ledger = join(place.dir, 'gateway.ledger.jsonl');
    await eventually(async () =>
      /"code":"CANCELLED"[^\n]*"tool":"mine__hang"/.test(readFileSync(ledger, 'utf8')),
    );
    // the session goes on
    expect(textOf(await gateway.client.callTool({ name: 'mine__pid', arguments: {} }))).toMatch(/^pid \d+$/);
  });

  it('answers a call whose upstream is killed mid-call with an error naming it, and the next call works', async () => {
    const pid = Number(textOf(await gateway.client.callTool({ name: 'mine__pid', arguments: {} })).slice(4));
    expect(pid).toBeGreaterThan(0);
    let started!: () => void;
    const upstreamHasIt = new Promise<void>((resolve) => {
      started = resolve;
    });
    const hanging = gateway.client.request(
      { method: 'tools/call', params: { name: 'mine__hang', arguments: {} } },
      CallToolResultSchema,
      { onprogress: () => started(), timeout: 60_000 },
    );
    await upstreamHasIt;
    process.kill(pid, 'SIGKILL');
    const result = await hanging;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^TRANSPORT_FAILED: .*"mine"/);
    const next = Number(textOf(await gateway.client.callTool({ name: 'mine__pid', arguments: {} })).slice(4));
    expect(next).toBeGreaterThan(0);
    expect(next).not.toBe(pid);
    upstreamPid = next;
  });

  it('leaves a ledger toolgate-ledger verifies, and that replays byte for byte with every upstream off', async () => {
    const gatewayPid = gateway.transport.pid!;
    await gateway.close();
    await eventually(async () => !alive(gatewayPid));
    const ledger = join(place.dir, 'gateway.ledger.jsonl');
    const verified = execFileSync(binPath('toolgate-ledger'), ['verify', ledger]).toString();
    expect(verified).toMatch(/ok/i);
    const recorded = readFileSync(ledger, 'utf8');
    for (const kind of ['gateway.started', 'client.connected', 'tool.changed', 'config.reloaded'])
      expect(recorded).toContain(`"kind":"${kind}"`);
    for (const code of ['CAPABILITY_VIOLATION', 'PERMISSION_DENIED', 'TOOL_CHANGED', 'TRANSPORT_FAILED'])
      expect(recorded).toContain(`"code":"${code}"`);
    expect(recorded).toContain('the user approved it');
    // no upstream runs now: the gateway took its children with it
    expect(upstreamPid).toBeGreaterThan(0);
    await eventually(async () => !alive(upstreamPid));
    const copy = join(place.dir, 'replayed.jsonl');
    const calls = await replayGatewayLedger(ledger, copy);
    expect(calls).toBeGreaterThan(10);
    expect(readFileSync(copy, 'utf8')).toBe(recorded);
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
