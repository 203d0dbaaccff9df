import { ToolGate, ToolRegistry } from '@toolgate/core';
import { describe, expect, it } from 'vitest';
import { connectClosingAfterEach, shifty } from './testing-fixtures/servers.js';
import type { ToolChange } from './tools/tool-change.js';

const object = { type: 'object', properties: { value: { type: 'string', description: 'Any text.' } } };
const tool = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  description: `The ${name} tool.`,
  inputSchema: object,
  ...extra,
});

describe('remote tools toolgate cannot serve are reported, never dropped silently', () => {
  const connect = connectClosingAfterEach();

  it('withholds and reports each name that is not a valid tool name, serving the rest', async () => {
    const changes: ToolChange[] = [];
    const recorded: ToolChange[] = [];
    const bad = ['read file', 'fs/read', 'x'.repeat(65), 'ünïcode', ''];
    const resolver = await connect(
      [shifty('s', { tools: [tool('echo'), ...bad.map((name) => tool(name))] })],
      {
        onChange: (change) => void changes.push(change),
        recorder: { toolChanged: (change) => void recorded.push(change) },
      },
    );
    expect(changes.map((change) => [change.kind, change.remoteName])).toEqual(
      bad.map((name) => ['withheld', name]),
    );
    for (const change of changes) {
      expect(change.reason).toMatch(/^its name ".*" is not a valid tool name$/);
      expect(change.server).toBe('s');
    }
    expect(recorded).toEqual(changes);
    expect(await resolver.has('echo')).toBe(true);
    for (const name of bad) expect(await resolver.has(name)).toBe(false);
  });

  it('reports a name made invalid by the prefix, under the name agents would call it by', async () => {
    const changes: ToolChange[] = [];
    await connect([shifty('s', { tools: [tool('y'.repeat(60))] }, { prefix: 'files' })], {
      onChange: (change) => void changes.push(change),
    });
    expect(changes).toMatchObject([
      { kind: 'withheld', tool: `files__${'y'.repeat(60)}`, remoteName: 'y'.repeat(60) },
    ]);
  });

  it('does not offer a tool that requires MCP tasks: withheld and reported; optional task support is served', async () => {
    const changes: ToolChange[] = [];
    const resolver = await connect(
      [
        shifty('s', {
          tools: [
            tool('render', { execution: { taskSupport: 'required' } }),
            tool('maybe', { execution: { taskSupport: 'optional' } }),
            tool('plain', { execution: { taskSupport: 'forbidden' } }),
          ],
        }),
      ],
      { onChange: (change) => void changes.push(change) },
    );
    expect(changes).toEqual([
      {
        kind: 'withheld',
        server: 's',
        tool: 'render',
        remoteName: 'render',
        after: { description: 'The render tool.', inputSchema: {} },
        reason:
          'it requires MCP tasks (execution.taskSupport "required"), which toolgate does not run; ' +
          'it can only be called as a task',
      },
    ]);
    const agent = new ToolGate(new ToolRegistry().setResolver(resolver)).forAgent({
      name: 'a',
      tools: ['render', 'maybe', 'plain'],
    });
    expect((await agent.toolSchemas()).map((described) => described.name)).toEqual(['maybe', 'plain']);
    expect(await agent.callTool('render', { value: 'x' })).toMatchObject({
      isError: true,
      error: { code: 'UNKNOWN_TOOL' },
    });
    expect(await agent.callTool('maybe', { value: 'x' })).toMatchObject({ isError: false });
  });

  it('reports a schema zod cannot read back (if/then/else) and validates it with ajv, never letting calls through unvalidated', async () => {
    const conditional = {
      type: 'object',
      properties: { mode: { type: 'string' }, path: { type: 'string' } },
      if: { properties: { mode: { const: 'write' } } },
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then/else, never awaited
      then: { required: ['path'] },
    };
    const changes: ToolChange[] = [];
    const resolver = await connect(
      [shifty('s', { tools: [tool('store', { inputSchema: conditional }), tool('plain')] })],
      { onChange: (change) => void changes.push(change) },
    );
    expect(changes.map(({ kind, tool, reason }) => ({ kind, tool, reason }))).toEqual([
      {
        kind: 'ajv-validated',
        tool: 'store',
        reason: expect.stringMatching(
          /^zod cannot read its input schema back \(.+\); its calls are validated by ajv$/,
        ),
      },
    ]);
    const agent = new ToolGate(new ToolRegistry().setResolver(resolver)).forAgent({
      name: 'a',
      tools: ['store'],
    });
    const refused = await agent.callTool('store', { mode: 'write' });
    expect(refused).toMatchObject({ isError: true, error: { code: 'INVALID_PARAMETERS' } });
    expect(refused.isError && refused.error.message).toContain('(path)');
    expect(await agent.callTool('store', { mode: 'write', path: 'a' })).toMatchObject({ isError: false });
    expect(await agent.callTool('store', { mode: 'read' })).toMatchObject({ isError: false });
  });
});
