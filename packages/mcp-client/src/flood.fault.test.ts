import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ServerLogEntry, StdioServerConfig } from './server-config.js';
import { startHostileHttp } from './testing-fixtures/hostile-http.js';
import { connectClosingAfterEach, fixture } from './testing-fixtures/servers.js';

const hostile = (options: Partial<StdioServerConfig> = {}) =>
  fixture('hostile.mjs', { args: [join(fixture('hostile.mjs').args![0]!)], ...options });

describe('floods coalesce', () => {
  const connect = connectClosingAfterEach();

  it('10,000 list_changed notifications cost at most one refresh in flight and one queued', async () => {
    const resolver = await connect([hostile()]);
    expect(await resolver.call('flood_list_changed', { count: 10_000 })).toEqual({ sent: 10_000 });
    // A call waits for its own server's refreshes asked for before it, so the count is final here.
    const { listRequests } = (await resolver.call('stats', {})) as { listRequests: number };
    expect(listRequests).toBeGreaterThanOrEqual(2); // the attach, and at least one refresh
    expect(listRequests).toBeLessThanOrEqual(3); // the attach, one in flight, one queued
  });

  it('a flood of log and progress notifications reaches onLog at the rate limit, and calls still answer', async () => {
    const logs: ServerLogEntry[] = [];
    const resolver = await connect([hostile({ onLog: (entry) => logs.push(entry) })]);
    const started = performance.now();
    expect(await resolver.call('flood_notifications', { count: 10_000 })).toEqual({ sent: 10_000 });
    expect(await resolver.call('ping', {})).toEqual({ pong: true });
    const seconds = (performance.now() - started) / 1000;
    expect(logs[0], JSON.stringify(logs.slice(0, 3))).toMatchObject({
      server: 'hostile',
      level: 'info',
      data: 'log 0',
      dropped: expect.any(Number),
    });
    // A burst of 40, then 20 a second: nowhere near the 10,000 sent.
    expect(logs.length, `${logs.length} log entries in ${seconds.toFixed(1)} s`).toBeLessThanOrEqual(
      40 + Math.ceil(20 * seconds) + 1,
    );
  });

  it('over HTTP, a JSON batch of 10,000 list_changed notifications fails the call at maxBatchMessages, unread', async () => {
    const http = await startHostileHttp();
    try {
      const resolver = await connect([{ name: 'hostile-http', url: http.url }]);
      await expect(resolver.call('flood_batch', {})).rejects.toMatchObject({
        code: 'TRANSPORT_FAILED',
        message: expect.stringContaining(
          'MCP server "hostile-http" failed during a call to "flood_batch": it sent a batch of 10001 messages in one response, more than 100 (limits.maxBatchMessages)',
        ),
      });
      expect(http.listRequests).toBe(1); // none of the notifications was acted on
      expect(await resolver.call('ok', {})).toEqual({ ok: true }); // a new session
    } finally {
      await http.close();
    }
  });

  it('over HTTP, a batch allowed by the config still costs at most two refreshes', async () => {
    const http = await startHostileHttp();
    try {
      const resolver = await connect([
        { name: 'hostile-http', url: http.url, limits: { maxBatchMessages: 20_000 } },
      ]);
      expect(await resolver.call('flood_batch', { count: 10_000 })).toEqual({ flooded: true });
      expect(await resolver.call('ok', {})).toEqual({ ok: true }); // waits for its own refreshes
      expect(http.listRequests).toBeGreaterThanOrEqual(2);
      expect(http.listRequests).toBeLessThanOrEqual(3);
    } finally {
      await http.close();
    }
  });
});
