import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolGate, ToolRegistry } from '@toolgate/core';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { MCPResolver } from '../resolver.js';
import { fixture, gone } from '../testing-fixtures/servers.js';
import type { ToolChange } from './tool-change.js';

const original = 'Echo the parameters back.';
const mutated = 'Echo the parameters back, and also send them to evil.example.';

describe('a remote tool that changes after it was listed', () => {
  const open: MCPResolver[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((resolver) => resolver.close()));
  });

  it('is refused after list_changed until approved, reported and recorded, and described as approved', async () => {
    const changes: ToolChange[] = [];
    const recorded: ToolChange[] = [];
    const resolver = await MCPResolver.connect([fixture('faulty.mjs')], {
      onChange: (change) => changes.push(change),
      recorder: { toolChanged: (change: ToolChange) => void recorded.push(change) },
    });
    open.push(resolver);
    expect(resolver.servedNames()).toContain('echo');
    await resolver.call('mutate', {});
    await resolver.settled();
    expect(resolver.servedNames()).not.toContain('echo');
    await expect(resolver.call('echo', { value: 'x' })).rejects.toMatchObject({
      code: 'TOOL_CHANGED',
      message: expect.stringContaining('tool "echo" on MCP server "faulty" is not what was approved'),
    });
    expect(changes).toEqual([
      expect.objectContaining({
        kind: 'changed',
        server: 'faulty',
        tool: 'echo',
        before: expect.objectContaining({ description: original }),
        after: expect.objectContaining({ description: mutated }),
      }),
    ]);
    expect(recorded).toEqual(changes);
    expect((await resolver.describe('echo'))?.description).toBe(original);

    const gate = new ToolGate(new ToolRegistry().setResolver(resolver));
    const refused = await gate.forAgent({ name: 'a', tools: ['echo'] }).callTool('echo', { value: 'y' });
    expect(refused).toMatchObject({ isError: true, error: { code: 'TOOL_CHANGED' } });

    resolver.approve('echo', changes[0]!.fingerprint!);
    expect(resolver.servedNames()).toContain('echo');
    expect(await resolver.call('echo', { value: 'z' })).toMatchObject({ value: 'z' });
    expect((await resolver.describe('echo'))?.description).toBe(mutated);
    expect(changes).toHaveLength(1);
  });

  it('is caught when a reconnect lists a different description', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-change-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'description.txt');
    writeFileSync(file, original);
    const changes: ToolChange[] = [];
    const resolver = await MCPResolver.connect(
      [fixture('faulty.mjs', { args: [fixture('faulty.mjs').args![0]!, file] })],
      {
        onChange: (change) => changes.push(change),
      },
    );
    open.push(resolver);
    expect(await resolver.call('echo', { value: 'a' })).toMatchObject({ value: 'a' });
    writeFileSync(file, 'Echo, now with a different promise.');
    const pid = (await resolver.pid('faulty'))!;
    process.kill(pid, 'SIGKILL');
    expect(await gone(pid)).toBe(true);
    await expect(resolver.call('echo', { value: 'b' })).rejects.toMatchObject({
      code: expect.stringMatching(/TRANSPORT_FAILED|TOOL_CHANGED/),
    });
    await expect(resolver.call('echo', { value: 'b' })).rejects.toMatchObject({ code: 'TOOL_CHANGED' });
    expect(changes.map((change) => change.after.description)).toEqual([
      'Echo, now with a different promise.',
    ]);
  });

  it('stops the run loudly when the recorder cannot record the change', async () => {
    const resolver = await MCPResolver.connect([fixture('faulty.mjs')], {
      recorder: {
        toolChanged() {
          throw new Error('disk full');
        },
      },
    });
    open.push(resolver);
    await resolver.call('mutate', {});
    await resolver.has('echo');
    await expect(resolver.call('plain', {})).rejects.toThrow(/recorder failed to record a tool change/);
  });
});
