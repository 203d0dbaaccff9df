import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { base64Bytes, type ContentPart, toolResult } from './content.js';
import { capContent } from './content-caps.js';
import { ToolGate } from './gate.js';
import { ToolRegistry } from './registry.js';
import { defineTool } from './tool.js';

const bytes = (count: number) => Buffer.alloc(count, 7).toString('base64');

describe('caps per content part', () => {
  it('counts decoded bytes of base64, padded or not', () => {
    for (const count of [0, 1, 2, 3, 4, 1000, 1001, 1002]) {
      const data = bytes(count);
      expect(base64Bytes(data)).toBe(count);
      expect(base64Bytes(data.replace(/=+$/, ''))).toBe(count);
    }
  });

  it('replaces a binary part over the byte cap with a text part saying what was omitted, never cutting base64', () => {
    const parts: ContentPart[] = [
      { type: 'image', data: bytes(1000), mimeType: 'image/png' },
      { type: 'image', data: bytes(1001), mimeType: 'image/png' },
      { type: 'audio', data: bytes(5000), mimeType: 'audio/wav' },
      { type: 'resource', resource: { uri: 'file:///big.bin', blob: bytes(2000) } },
    ];
    const capped = capContent(parts, { maxOutputChars: 100_000, maxContentBytes: 1000 });
    expect(capped[0]).toBe(parts[0]); // at the cap: as it was
    expect(capped.slice(1)).toEqual([
      {
        type: 'text',
        text: '[image ("image/png", 1001 bytes) omitted: over the cap of 1000 bytes for one part]',
      },
      {
        type: 'text',
        text: '[audio ("audio/wav", 5000 bytes) omitted: over the cap of 1000 bytes for one part]',
      },
      {
        type: 'text',
        text: '[embedded resource "file:///big.bin" (2000 bytes) omitted: over the cap of 1000 bytes for one part]',
      },
    ]);
  });

  it('cuts each text part, and each embedded text, at the character cap on its own, with a marker', () => {
    const capped = capContent(
      [
        { type: 'text', text: 'a'.repeat(50) },
        { type: 'text', text: 'b'.repeat(40) },
        { type: 'resource', resource: { uri: 'u', mimeType: 'text/plain', text: 'c'.repeat(45) } },
        { type: 'resource_link', uri: `https://example.com/${'d'.repeat(100)}`, name: 'long' },
      ],
      { maxOutputChars: 40, maxContentBytes: 1000 },
    );
    expect(capped[0]).toEqual({
      type: 'text',
      text: `${'a'.repeat(40)}\n[… truncated: 10 more characters not shown]`,
    });
    expect(capped[1]).toEqual({ type: 'text', text: 'b'.repeat(40) });
    expect(capped[2]).toEqual({
      type: 'resource',
      resource: {
        uri: 'u',
        mimeType: 'text/plain',
        text: `${'c'.repeat(40)}\n[… truncated: 5 more characters not shown]`,
      },
    });
    expect(capped[3]).toMatchObject({
      type: 'text',
      text: expect.stringMatching(/^\[resource link omitted: its \d+ characters/),
    });
  });

  it('applies in the gate: an over-cap image is omitted while the parts around it arrive whole', async () => {
    const tool = defineTool({
      name: 'draw',
      description: 'Draws.',
      input: z.object({}),
      run: () =>
        toolResult({
          output: { drawn: 2 },
          content: [
            { type: 'image', data: bytes(600), mimeType: 'image/png' },
            { type: 'image', data: bytes(5000), mimeType: 'image/png' },
            { type: 'text', text: 'x'.repeat(300) },
          ],
        }),
    });
    const gate = new ToolGate(new ToolRegistry().register(tool), {
      limits: { contentBytes: 1000, outputChars: 200 },
    });
    const result = await gate.forAgent({ name: 'a', tools: ['draw'] }).callTool('draw', {});
    expect(result).toMatchObject({ isError: false, output: { drawn: 2 } });
    const content = result.isError ? [] : (result.content ?? []);
    expect(content[0]).toEqual({ type: 'image', data: bytes(600), mimeType: 'image/png' });
    expect(content[1]).toEqual({
      type: 'text',
      text: '[image ("image/png", 5000 bytes) omitted: over the cap of 1000 bytes for one part]',
    });
    expect(content[2]).toEqual({
      type: 'text',
      text: `${'x'.repeat(200)}\n[… truncated: 100 more characters not shown]`,
    });
  });
});
