import { ToolGate, ToolRegistry } from '@toolgate/core';
import { describe, expect, it } from 'vitest';
import { MCPResolver } from './resolver.js';
import { alive, connectClosingAfterEach, fixture, gone, noChildren } from './testing-fixtures/servers.js';

describe('MCPResolver faults', () => {
  const connect = connectClosingAfterEach();

  it('a server that exits mid-call gives TRANSPORT_FAILED naming it, with its stderr, and the next call reconnects', async () => {
    const resolver = await connect([fixture('faulty.mjs')]);
    const before = (await resolver.pid('faulty'))!;
    await expect(resolver.call('exit', {})).rejects.toMatchObject({
      code: 'TRANSPORT_FAILED',
      message: expect.stringMatching(/MCP server "faulty" failed during a call to "exit".*exiting mid-call/s),
    });
    expect(await gone(before)).toBe(true);
    expect(await resolver.call('echo', { value: 'back' })).toEqual({ value: 'back', calls: 1 });
    const after = (await resolver.pid('faulty'))!;
    expect(after).not.toBe(before);
  });

  it('a server killed mid-call yields an error result through the gate, never a crash', async () => {
    const resolver = await connect([fixture('faulty.mjs')]);
    const gate = new ToolGate(new ToolRegistry().setResolver(resolver));
    const agent = gate.forAgent({ name: 'a', tools: ['hang', 'echo'] });
    const pending = agent.callTool('hang', {});
    const pid = (await resolver.pid('faulty'))!;
    await new Promise((resolve) => setTimeout(resolve, 50));
    process.kill(pid, 'SIGKILL');
    const result = await pending;
    expect(result).toMatchObject({ isError: true, error: { code: 'TRANSPORT_FAILED' } });
    expect(result.isError && result.error.message).toContain('MCP server "faulty"');
    expect(await agent.callTool('echo', { value: 'again' })).toMatchObject({ isError: false });
  });

  it('a hung call times out with TIMEOUT naming the server; the hung process is stopped and the next call reconnects', async () => {
    // The timeout bounds the handshake too, so it leaves room for a slow start on a loaded machine.
    const resolver = await connect([fixture('faulty.mjs', { timeoutMs: 8000 })]);
    const hung = (await resolver.pid('faulty'))!;
    await expect(resolver.call('hang', {})).rejects.toMatchObject({
      code: 'TIMEOUT',
      message: expect.stringContaining('MCP server "faulty" did not answer a call to "hang" within 8000 ms'),
    });
    expect(await gone(hung)).toBe(true);
    expect(await resolver.call('echo', { value: 'fresh' })).toEqual({ value: 'fresh', calls: 1 });
  });

  it('junk on stdout fails the call in flight with TRANSPORT_FAILED and the next call reconnects', async () => {
    const resolver = await connect([fixture('faulty.mjs')]);
    const first = (await resolver.pid('faulty'))!;
    await expect(resolver.call('junk', {})).rejects.toMatchObject({
      code: 'TRANSPORT_FAILED',
      message: expect.stringContaining(
        'MCP server "faulty" failed during a call to "junk": it wrote a line that is not JSON-RPC',
      ),
    });
    expect(await gone(first)).toBe(true);
    expect(await resolver.call('echo', { value: 'clean' })).toMatchObject({ value: 'clean' });
  });

  it('a server that never answers the handshake fails attach with TIMEOUT and leaves no process', async () => {
    const resolver = new MCPResolver();
    try {
      const attaching = resolver.attach(fixture('never-answers.mjs', { timeoutMs: 400 }));
      await expect(attaching).rejects.toMatchObject({
        code: 'TIMEOUT',
        message: expect.stringContaining('MCP server "never-answers" did not answer starting it'),
      });
      expect(resolver.servers()).toEqual([]);
      expect(await noChildren()).toEqual([]);
    } finally {
      await resolver.close();
    }
  });

  it('a server that crashes on start fails attach with TRANSPORT_FAILED quoting its stderr', async () => {
    await expect(MCPResolver.connect([fixture('crashes-on-start.mjs')])).rejects.toMatchObject({
      code: 'TRANSPORT_FAILED',
      message: expect.stringMatching(/"crashes-on-start".*missing configuration file/s),
    });
    expect(await noChildren()).toEqual([]);
  });

  it('a server that prints a banner on stdout fails attach with TRANSPORT_FAILED', async () => {
    await expect(MCPResolver.connect([fixture('junk-on-start.mjs')])).rejects.toMatchObject({
      code: 'TRANSPORT_FAILED',
      message: expect.stringContaining(
        '"junk-on-start" failed during starting it: it wrote a line that is not JSON-RPC',
      ),
    });
    expect(await noChildren()).toEqual([]);
  });

  it('a command that does not exist fails attach with TRANSPORT_FAILED naming the server', async () => {
    await expect(
      MCPResolver.connect([{ name: 'ghost', command: '/nonexistent/mcp-server-binary' }]),
    ).rejects.toMatchObject({ code: 'TRANSPORT_FAILED', message: expect.stringMatching(/"ghost".*ENOENT/s) });
  });

  it('an HTTP server that is not there fails attach with TRANSPORT_FAILED naming it', async () => {
    await expect(
      MCPResolver.connect([{ name: 'nowhere', url: 'http://127.0.0.1:9/mcp' }]),
    ).rejects.toMatchObject({
      code: 'TRANSPORT_FAILED',
      message: expect.stringContaining('MCP server "nowhere"'),
    });
  });

  it('closing the resolver stops every child process, even one with a call in flight', async () => {
    const resolver = await connect([
      fixture('faulty.mjs', { name: 'a', prefix: 'a' }),
      fixture('faulty.mjs', { name: 'b', prefix: 'b' }),
    ]);
    const pids = [(await resolver.pid('a'))!, (await resolver.pid('b'))!];
    expect(pids.every(alive)).toBe(true);
    const inFlight = resolver.call('a__hang', {}).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await resolver.close();
    for (const pid of pids) expect(await gone(pid)).toBe(true);
    expect(await inFlight).toMatchObject({ code: 'TRANSPORT_FAILED' });
    await expect(resolver.call('a__echo', { value: 'x' })).rejects.toMatchObject({
      code: 'TRANSPORT_FAILED',
      message: expect.stringContaining('closed'),
    });
    expect(await noChildren()).toEqual([]);
  });
});
