import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type ContentPart, isToolOutput, toolResult } from './content.js';
import { ToolGate } from './gate.js';
import type { ToolReturnedRecord } from './recorder.js';
import { ToolRegistry } from './registry.js';
import { defineTool } from './tool.js';

// A 1×1 transparent PNG.
const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
const picture: ContentPart[] = [
  { type: 'text', text: 'before' },
  { type: 'image', data: png, mimeType: 'image/png' },
  { type: 'text', text: 'after' },
];

function gateWith(run: (parameters: { n: number }) => unknown, options = {}) {
  const returned: ToolReturnedRecord[] = [];
  const tool = defineTool({
    name: 'draw',
    description: 'Draws.',
    input: z.object({ n: z.number().describe('A number.') }),
    run,
  });
  const gate = new ToolGate(new ToolRegistry().register(tool), {
    callIds: () => 'c',
    clock: () => 0,
    recorder: {
      toolCalled() {},
      policyDecided() {},
      toolReturned: (record) => void returned.push(record),
    },
    ...options,
  });
  return { returned, agent: gate.forAgent({ name: 'a', tools: ['draw'] }), registry: gate.registry };
}

describe('content parts from an in-process tool', () => {
  it('comes back in order, byte for byte, beside a null output, and is recorded as returned', async () => {
    const { agent, returned } = gateWith(() => toolResult({ content: picture }));
    const result = await agent.callTool('draw', { n: 1 });
    expect(result).toEqual({
      callId: 'c',
      tool: 'draw',
      isError: false,
      output: null,
      content: picture,
      durationMs: 0,
    });
    expect(returned).toEqual([{ ...result, agent: 'a' }]);
  });

  it('keeps a JSON output beside the parts, and is answered the same by an async tool', async () => {
    const { agent } = gateWith(async () => toolResult({ output: { seed: 'moss' }, content: picture }));
    expect(await agent.callTool('draw', { n: 1 })).toMatchObject({
      output: { seed: 'moss' },
      content: picture,
    });
  });

  it('never reads a plain output shaped like parts as content: a result has content only from toolResult', async () => {
    for (const output of [
      { content: 'the text of a file' },
      { output: 1, content: [{ type: 'text', text: 'a' }] },
      JSON.parse(JSON.stringify(toolResult({ content: picture }))),
    ]) {
      const { agent } = gateWith(() => output);
      const result = await agent.callTool('draw', { n: 1 });
      expect(result).toEqual({ callId: 'c', tool: 'draw', isError: false, output, durationMs: 0 });
    }
    expect(isToolOutput({ output: null, content: [] })).toBe(false);
  });

  it('refuses a malformed part as INVALID_OUTPUT naming the tool and the part', async () => {
    const cases: [unknown, string][] = [
      [{ type: 'image', data: 'not base64!', mimeType: 'image/png' }, '"data" is not base64'],
      [{ type: 'image', data: png }, '"mimeType" is not a string'],
      [{ type: 'video', data: png }, 'its type "video" is not one of'],
      [{ type: 'resource', resource: { uri: 'file:///a' } }, 'neither a string "text" nor a base64 "blob"'],
      [{ type: 'resource_link', uri: 'file:///a', name: 'a', size: -1 }, '"size" is not a whole number'],
      ['text', 'it is not an object'],
    ];
    for (const [part, why] of cases) {
      const { agent } = gateWith(() =>
        toolResult({ content: [{ type: 'text', text: 'ok' }, part as ContentPart] }),
      );
      const result = await agent.callTool('draw', { n: 1 });
      expect(result).toMatchObject({ isError: true, error: { code: 'INVALID_OUTPUT' } });
      expect(result.isError && result.error.message).toContain('the output of tool "draw" (content part 1)');
      expect(result.isError && result.error.message).toContain(why);
    }
  });

  it('keeps only the known fields of each part', async () => {
    const { agent } = gateWith(() =>
      toolResult({
        content: [
          { type: 'text', text: 'a', extra: 1 } as ContentPart,
          { type: 'resource', resource: { uri: 'u', blob: png, extra: true } } as ContentPart,
        ],
      }),
    );
    const result = await agent.callTool('draw', { n: 1 });
    expect(result).toMatchObject({
      content: [
        { type: 'text', text: 'a' },
        { type: 'resource', resource: { uri: 'u', blob: png } },
      ],
    });
    expect(JSON.stringify(result)).not.toContain('extra');
  });

  it('is returned by registry.call as a checked toolResult, uncapped', async () => {
    const { registry } = gateWith(() => toolResult({ output: 7, content: picture }));
    const value = await registry.call('a', { tools: ['draw'] }, 'draw', { n: 1 });
    expect(isToolOutput(value)).toBe(true);
    expect({ ...(value as object) }).toEqual({ output: 7, content: picture });
  });
});
