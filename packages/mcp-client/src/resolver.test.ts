import { ToolGate, ToolRegistry } from '@toolgate/core';
import { describe, expect, it } from 'vitest';
import { MCPResolver } from './resolver.js';
import { connectClosingAfterEach, fixture } from './testing-fixtures/servers.js';

describe('MCPResolver over a real stdio server', () => {
  const connect = connectClosingAfterEach();

  it('maps structured, JSON-text, bare and empty results to plain values, and plain text to a text part', async () => {
    const resolver = await connect([fixture('faulty.mjs')]);
    expect(await resolver.call('echo', { value: 'hi' })).toEqual({ value: 'hi', calls: 1 });
    expect(await resolver.call('plain', {})).toEqual({
      output: null,
      content: [{ type: 'text', text: 'just words' }],
    });
    expect(await resolver.call('number', {})).toEqual({ result: 42 });
    expect(await resolver.call('nothing', {})).toEqual({});
  });

  it('folds an isError result into an error result the model reads, naming the server', async () => {
    const resolver = await connect([fixture('faulty.mjs')]);
    const gate = new ToolGate(new ToolRegistry().setResolver(resolver));
    const result = await gate.forAgent({ name: 'a', tools: ['fail'] }).callTool('fail', {});
    expect(result).toMatchObject({
      isError: true,
      error: {
        code: 'TOOL_FAILED',
        message: 'tool "fail" on MCP server "faulty" failed: the disk is on fire',
      },
    });
  });

  it('caps remote output like in-process output, at the gate (the resolver passes it through)', async () => {
    const resolver = await connect([fixture('faulty.mjs')]);
    const gate = new ToolGate(new ToolRegistry().setResolver(resolver), { limits: { outputChars: 1000 } });
    const agent = gate.forAgent({ name: 'a', tools: ['big'] });
    const result = await agent.callTool('big', { size: 5000 });
    const output = (result as unknown as { output: { truncated: boolean; omittedChars: number } }).output;
    expect(output.truncated).toBe(true);
    expect(JSON.stringify(output).length).toBeLessThanOrEqual(1000); // the cap holds on what is returned
    expect(await agent.callTool('big', { size: 10 })).toMatchObject({ output: { text: 'x'.repeat(10) } });
    expect(await resolver.call('big', { size: 5000 })).toEqual({ text: 'x'.repeat(5000) });
  });

  it('refuses two servers serving the same name without prefixes, and leaves nothing running', async () => {
    const resolver = await connect([fixture('faulty.mjs', { name: 'first' })]);
    await expect(resolver.attach(fixture('faulty.mjs', { name: 'second' }))).rejects.toMatchObject({
      code: 'INVALID_DEFINITION',
      message: expect.stringContaining('"first" and "second" both serve a tool named "echo"'),
    });
    expect(resolver.servers()).toEqual(['first']);
    expect(await resolver.call('echo', { value: 'still first' })).toMatchObject({ value: 'still first' });
  });

  it('serves prefixed names so two servers can export the same tool', async () => {
    const resolver = await connect([
      fixture('faulty.mjs', { name: 'left', prefix: 'left' }),
      fixture('faulty.mjs', { name: 'right', prefix: 'right' }),
    ]);
    expect(await resolver.has('echo')).toBe(false);
    expect(await resolver.has('left__echo')).toBe(true);
    await resolver.call('left__echo', { value: 'a' });
    expect(await resolver.call('left__echo', { value: 'b' })).toEqual({ value: 'b', calls: 2 });
    expect(await resolver.call('right__echo', { value: 'c' })).toEqual({ value: 'c', calls: 1 });
    expect((await resolver.describe('right__echo'))?.name).toBe('right__echo');
  });

  it('pages through a long tools/list', async () => {
    const resolver = await connect([fixture('paged.mjs')]);
    expect(await resolver.has('tool_0')).toBe(true);
    expect(await resolver.has('tool_249')).toBe(true);
    expect(await resolver.has('tool_250')).toBe(false);
    expect(await resolver.call('tool_249', {})).toEqual({ called: 'tool_249' });
  });

  it('answers has/describe from the cached list and says UNKNOWN_TOOL for a name it does not serve', async () => {
    const resolver = await connect([fixture('faulty.mjs')]);
    expect(await resolver.describe('nope')).toBeUndefined();
    await expect(resolver.call('nope', {})).rejects.toMatchObject({ code: 'UNKNOWN_TOOL' });
  });

  it('rejects a bad server config before spawning anything', async () => {
    await expect(MCPResolver.connect([{ name: '', command: 'node' }])).rejects.toMatchObject({
      code: 'INVALID_DEFINITION',
    });
    await expect(MCPResolver.connect([{ name: 'x', url: 'ftp://example.com' }])).rejects.toThrow(
      /http or https/,
    );
    await expect(
      MCPResolver.connect([fixture('faulty.mjs', { name: 'x', prefix: 'bad prefix' })]),
    ).rejects.toThrow(/prefix "bad prefix"/);
  });
});
