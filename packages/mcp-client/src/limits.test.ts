import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCPResolver } from './resolver.js';
import { type HostileHttp, startHostileHttp } from './testing-fixtures/hostile-http.js';
import { connectClosingAfterEach, fixture } from './testing-fixtures/servers.js';

const hostile = (listing?: string, options = {}) =>
  fixture('hostile.mjs', {
    args: [join(fixture('hostile.mjs').args![0]!), ...(listing ? [listing] : [])],
    ...options,
  });

describe('limits per server', () => {
  const connect = connectClosingAfterEach();

  it('takes a per-server limit from the config: a 2 MB result fails under a 1 MB limit, naming it', async () => {
    const resolver = await connect([hostile(undefined, { limits: { maxMessageBytes: 1_000_000 } })]);
    await expect(resolver.call('big_result', { chars: 2_000_000 })).rejects.toMatchObject({
      code: 'TRANSPORT_FAILED',
      message: expect.stringContaining(
        'MCP server "hostile" failed during a call to "big_result": it sent a message larger than 1000000 bytes (limits.maxMessageBytes)',
      ),
    });
    // The session was dropped; the next call reconnects and works.
    expect(await resolver.call('ping', {})).toEqual({ pong: true });
  });

  it('refuses a config whose limits are not positive integers, before anything is spawned', async () => {
    await expect(
      MCPResolver.connect([hostile(undefined, { limits: { maxMessageBytes: -1 } })]),
    ).rejects.toMatchObject({
      code: 'INVALID_DEFINITION',
      message: expect.stringContaining('limits.maxMessageBytes must be a positive integer, not -1'),
    });
    await expect(
      MCPResolver.connect([hostile(undefined, { limits: { maxMessages: 3 } as never })]),
    ).rejects.toMatchObject({ message: expect.stringContaining('limits.maxMessages is not a limit') });
  });

  it('cuts a 3 MB error result to maxErrorChars, with a marker', async () => {
    const resolver = await connect([hostile()]);
    const error = await resolver.call('big_error', { chars: 3_000_000 }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      code: 'TOOL_FAILED',
      message: expect.stringContaining('MCP server "hostile"'),
    });
    const message = (error as Error).message;
    expect(message.length).toBeLessThan(10_200);
    expect(message).toMatch(/\[… truncated: 2990000 more characters not shown\]$/);
  });

  it('fails the attach of a server listing more than maxTools tools, naming the limit', async () => {
    await expect(MCPResolver.connect([hostile('many-tools')])).rejects.toMatchObject({
      code: 'TRANSPORT_FAILED',
      message: expect.stringContaining('MCP server "hostile" lists more than 1000 tools (limits.maxTools)'),
    });
  });

  it('withholds a tool whose schema is too deep or too large, cuts a long description, and serves the rest', async () => {
    const resolver = await connect([hostile('odd-tools')]);
    expect(await resolver.has('ping')).toBe(true);
    expect(await resolver.has('deep')).toBe(false);
    expect(await resolver.has('wide')).toBe(false);
    await expect(resolver.call('deep', {})).rejects.toMatchObject({
      code: 'UNKNOWN_TOOL',
      message:
        'tool "deep" on MCP server "hostile" is not served: its input schema nests deeper than 64 levels (limits.maxSchemaDepth)',
    });
    await expect(resolver.call('wide', {})).rejects.toMatchObject({
      message: expect.stringContaining('its input schema is larger than 256 KiB (limits.maxSchemaBytes)'),
    });
    const wordy = await resolver.describe('wordy');
    expect(wordy?.description).toHaveLength(
      16_384 + '\n[… truncated: 83616 more characters not shown]'.length,
    );
    expect(wordy?.description.endsWith('[… truncated: 83616 more characters not shown]')).toBe(true);
    expect(await resolver.call('ping', {})).toEqual({ pong: true });
  });

  describe('over streamable HTTP', () => {
    let http: HostileHttp;
    beforeAll(async () => {
      http = await startHostileHttp();
    });
    afterAll(async () => {
      await http.close();
    });

    it('cuts a 3 MB JSON-RPC error message to maxErrorChars, with a marker', async () => {
      const resolver = await connect([{ name: 'hostile-http', url: http.url }]);
      const error = await resolver.call('rpc_error', {}).catch((caught: unknown) => caught);
      expect(error).toMatchObject({
        code: 'TOOL_FAILED',
        message: expect.stringContaining('MCP server "hostile-http" refused a call to "rpc_error"'),
      });
      const message = (error as Error).message;
      expect(message.length).toBeLessThan(10_200);
      expect(message).toMatch(/\[… truncated: \d+ more characters not shown\]$/);
      expect(await resolver.call('ok', {})).toEqual({ ok: true });
    });
  });
});
