import { join } from 'node:path';
import { ToolGate, ToolRegistry } from '@toolgate/core';
import { describe, expect, it } from 'vitest';
import type { StdioServerConfig } from './server-config.js';
import { connectClosingAfterEach, fixture } from './testing-fixtures/servers.js';

/** The hostile server `b` whose refresh `listing` stalls, and a promise of its second tools/list request. */
function stallingServer(listing: 'stall-refresh' | 'slow-pages', options: Partial<StdioServerConfig> = {}) {
  let refreshAsked!: () => void;
  const asked = new Promise<void>((resolve) => {
    refreshAsked = resolve;
  });
  const config = fixture('hostile.mjs', {
    name: 'b',
    prefix: 'b',
    args: [join(fixture('hostile.mjs').args![0]!), listing],
    onStderr: (text) => {
      if (text.includes('tools/list #2')) refreshAsked();
    },
    ...options,
  });
  return { config, asked };
}

const settledWithin = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([
    promise.then(
      () => 'settled',
      () => 'settled',
    ),
    new Promise((resolve) => setTimeout(() => resolve('pending'), ms)),
  ]);

describe('servers are independent', () => {
  const connect = connectClosingAfterEach();

  it.each([
    ['never answers its refresh', 'stall-refresh' as const, { timeoutMs: 600_000 }],
    ['serves its refresh a page every 2 s, forever', 'slow-pages' as const, {}],
  ])('a call to server A is answered promptly while server B %s', async (_, listing, options) => {
    const b = stallingServer(listing, options);
    const resolver = await connect([fixture('faulty.mjs', { name: 'a', prefix: 'a' }), b.config]);
    const agent = new ToolGate(new ToolRegistry().setResolver(resolver)).forAgent({
      name: 'agent',
      tools: ['a__echo', 'b__flood_list_changed'],
    });
    expect(await agent.callTool('b__flood_list_changed', { count: 1 })).toMatchObject({ isError: false });
    await b.asked;

    const started = performance.now();
    const answer = await agent.callTool('a__echo', { value: 'prompt' });
    const elapsed = performance.now() - started;
    expect(answer).toMatchObject({ isError: false, output: { value: 'prompt' } });
    expect(elapsed).toBeLessThan(5000);

    // B really is stalled: its own call waits for its refresh, while its last good list is still served.
    const bCall = resolver.call('b__ping', {});
    expect(await settledWithin(bCall, 1000)).toBe('pending');
    expect(await resolver.has('b__ping')).toBe(true);
    expect((await resolver.describe('b__ping'))?.description).toBe('The ping attack.');
    bCall.catch(() => undefined); // rejected when the resolver closes
  });
});
