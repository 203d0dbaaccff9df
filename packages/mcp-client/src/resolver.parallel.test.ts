import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolGate, ToolRegistry } from '@toolgate/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MCPResolver } from './resolver.js';
import { connectClosingAfterEach, fixture, noChildren } from './testing-fixtures/servers.js';

/** A server that answers initialize only once `wait` exists, writing `mark` (if given) when it starts. */
function gated(name: string, wait: string, mark?: string) {
  return fixture('gated-start.mjs', {
    name,
    prefix: name,
    args: [join(import.meta.dirname, 'testing-fixtures', 'gated-start.mjs'), wait, ...(mark ? [mark] : [])],
  });
}

describe('MCP servers connect in parallel', { timeout: 120_000 }, () => {
  const connect = connectClosingAfterEach();
  let directory: string | undefined;
  const place = (name: string) => {
    directory ??= mkdtempSync(join(tmpdir(), 'toolgate-parallel-'));
    return join(directory, name);
  };
  afterEach(() => {
    if (directory) rmSync(directory, { recursive: true, force: true });
    directory = undefined;
  });

  it('connects every server at once: a server listed first that waits for one listed later does not hold it up', async () => {
    // "slow" answers only after "fast" has started: connecting one after another would never finish.
    const started = place('fast-started');
    const resolver = await connect([gated('slow', started), gated('fast', '', started)]);
    expect(resolver.servers().sort()).toEqual(['fast', 'slow']);
    expect(await resolver.call('slow__echo', { value: 'a' })).toEqual({ value: 'a' });
    expect(await resolver.call('fast__echo', { value: 'b' })).toEqual({ value: 'b' });
  });

  it("serves one server's tools while another is still starting", async () => {
    const release = place('release-slow');
    const resolver = new MCPResolver();
    try {
      const slow = resolver.attach(gated('slow', release));
      await resolver.attach(gated('fast', ''));
      const gate = new ToolGate(new ToolRegistry().setResolver(resolver));
      const agent = gate.forAgent({ name: 'agent', tools: ['fast__echo', 'slow__echo'] });
      // slow has not answered initialize: it cannot, until the file it waits for exists.
      expect(existsSync(release)).toBe(false);
      expect(await agent.callTool('fast__echo', { value: 'while slow starts' })).toMatchObject({
        isError: false,
        output: { value: 'while slow starts' },
      });
      expect(resolver.servers()).toEqual(['fast']);
      expect(await agent.callTool('slow__echo', { value: 'x' })).toMatchObject({
        isError: true,
        error: { code: 'UNKNOWN_TOOL' },
      });
      writeFileSync(release, '');
      await slow;
      expect(await agent.callTool('slow__echo', { value: 'now' })).toMatchObject({
        output: { value: 'now' },
      });
    } finally {
      await resolver.close();
    }
  });

  it('rejects with the error naming the first failed server, and leaves nothing running', async () => {
    await expect(
      MCPResolver.connect([
        gated('good', ''),
        fixture('crashes-on-start.mjs'),
        fixture('never-answers.mjs', { timeoutMs: 400 }),
      ]),
    ).rejects.toMatchObject({
      code: 'TRANSPORT_FAILED',
      message: expect.stringMatching(/"crashes-on-start"/),
    });
    expect(await noChildren()).toEqual([]);
  });

  it('refuses two attaches under the same name at once', async () => {
    const resolver = new MCPResolver();
    try {
      const first = resolver.attach(gated('same', ''));
      await expect(resolver.attach(gated('same', ''))).rejects.toMatchObject({
        code: 'INVALID_DEFINITION',
        message: expect.stringMatching(/named "same" is already attached/),
      });
      await first;
      expect(resolver.servers()).toEqual(['same']);
    } finally {
      await resolver.close();
    }
  });

  it('closes a server still starting when the resolver closes', async () => {
    const resolver = new MCPResolver();
    const started = place('slow-started');
    const attaching = resolver
      .attach(gated('slow', place('never'), started))
      .catch((error: unknown) => error);
    await vi.waitFor(() => expect(existsSync(started)).toBe(true), { timeout: 60_000 });
    await resolver.close();
    expect(await attaching).toMatchObject({
      code: 'TRANSPORT_FAILED',
      message: expect.stringMatching(/"slow"/),
    });
    expect(resolver.servers()).toEqual([]);
    expect(await noChildren()).toEqual([]);
  });
});
