import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ServerLogEntry, StdioServerConfig } from './server-config.js';
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
      dropped: 0,
    });
    // A burst of 40, then 20 a second: nowhere near the 10,000 sent.
    expect(logs.length, `${logs.length} log entries in ${seconds.toFixed(1)} s`).toBeLessThanOrEqual(
      40 + Math.ceil(20 * seconds) + 1,
    );
  });
});
