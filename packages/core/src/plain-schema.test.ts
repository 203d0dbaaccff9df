import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolGate } from './gate.js';
import { plainSchema } from './plain-schema.js';
import { ToolRegistry } from './registry.js';
import { defineTool } from './tool.js';

function hasStandardKey(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  for (let object: object | null = value; object !== null; object = Object.getPrototypeOf(object))
    if (Object.getOwnPropertyNames(object).includes('~standard')) return true;
  return Object.values(value).some(hasStandardKey);
}

describe('tool schemas are plain JSON Schema', () => {
  const tool = defineTool({
    name: 'draw',
    description: 'Draws.',
    input: z.object({
      colour: z.enum(['red', 'blue']).describe('which colour'),
      size: z.object({ width: z.number().describe('px') }).describe('how big'),
    }),
    run: () => null,
  });

  it('has no ~standard property anywhere (own, inherited or non-enumerable), and survives a JSON clone', async () => {
    // zod puts one on what toJSONSchema returns: the thing this guards against exists
    expect(hasStandardKey(z.toJSONSchema(z.object({ a: z.string() })))).toBe(true);
    expect(hasStandardKey(tool.inputSchema)).toBe(false);
    expect(Object.getPrototypeOf(tool.inputSchema)).toBe(Object.prototype);
    expect(JSON.parse(JSON.stringify(tool.inputSchema))).toEqual(tool.inputSchema);
    const handle = new ToolGate(new ToolRegistry().register(tool)).forAgent({ name: 'a', tools: ['draw'] });
    const [described] = await handle.toolSchemas();
    expect(hasStandardKey(described)).toBe(false);
    expect(JSON.parse(JSON.stringify(described))).toEqual(described);
  });

  it('drops ~standard, functions and undefined from any schema it is given', () => {
    const schema = { type: 'object', properties: { a: { type: 'string', f: () => 1, u: undefined } } };
    Object.defineProperty(schema, '~standard', { value: { vendor: 'zod' }, enumerable: true });
    const plain = plainSchema(schema);
    expect(plain).toEqual({ type: 'object', properties: { a: { type: 'string' } } });
    expect(Object.getOwnPropertyNames(plain)).toEqual(['type', 'properties']);
  });

  it("gives a resolver's tool the same plain schema: no ~standard, function or symbol reaches a prompt", async () => {
    const properties = { a: { type: 'string', f: () => 1, s: Symbol('s') }, e: { enum: ['x', () => 1] } };
    const inputSchema = { type: 'object', properties };
    Object.defineProperty(inputSchema, '~standard', { value: { vendor: 'zod' }, enumerable: true });
    const registry = new ToolRegistry().setResolver({
      has: async (name) => name === 'remote',
      describe: async (name) => ({ name, description: 'A remote tool.', inputSchema }),
      call: async () => null,
    });
    const handle = new ToolGate(registry).forAgent({ name: 'a', tools: ['remote'] });
    const [described] = await handle.toolSchemas();
    expect(described?.inputSchema).toEqual({
      type: 'object',
      properties: { a: { type: 'string' }, e: { enum: ['x', null] } },
    });
    expect(hasStandardKey(described)).toBe(false);
  });
});
