import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolgateError } from './errors.js';
import { defineTool } from './tool.js';

const seed = z.object({ seed: z.string().describe('the seed') });

function definitionError(define: () => unknown): ToolgateError {
  try {
    define();
  } catch (error) {
    if (error instanceof ToolgateError) return error;
    throw error;
  }
  throw new Error('expected a ToolgateError');
}

describe('defineTool', () => {
  it('derives the model-facing JSON Schema from the zod schema, refusing extra keys', () => {
    const tool = defineTool({
      name: 'oracle',
      description: 'Draw an omen.',
      input: z.object({
        seed: z.string().describe('the seed'),
        depth: z.number().int().min(1).optional().describe('how deep'),
        mood: z.enum(['dark', 'light']).describe('the mood'),
      }),
      run: () => ({}),
    });
    expect(tool.inputSchema).toMatchObject({
      type: 'object',
      required: ['seed', 'mood'],
      additionalProperties: false,
      properties: {
        seed: { type: 'string', description: 'the seed' },
        depth: { type: 'integer', minimum: 1, description: 'how deep' },
        mood: { enum: ['dark', 'light'], description: 'the mood' },
      },
    });
    expect(tool.inputSchema).not.toHaveProperty('$schema');
    expect(tool.parallelSafe).toBe(false);
  });

  it('decides parallel-safety per call when parallelSafe is a function of the parameters', () => {
    const request = defineTool({
      name: 'request',
      description: 'Send a request.',
      input: z.object({ method: z.string().optional().describe('the method') }),
      parallelSafe: ({ method }) => method === undefined || method === 'GET',
      run: () => ({}),
    });
    expect(request.parallelSafe).toBe(false);
    expect(request.isParallelSafe({})).toBe(true);
    expect(request.isParallelSafe({ method: 'GET' })).toBe(true);
    expect(request.isParallelSafe({ method: 'POST' })).toBe(false);
    expect(request.isParallelSafe({ method: 7 })).toBe(false);
    expect(request.isParallelSafe({ extra: 1 })).toBe(false);
    const throwing = defineTool({
      name: 'throwing',
      description: 'Its safety check throws.',
      input: z.object({}),
      parallelSafe: () => {
        throw new Error('no idea');
      },
      run: () => ({}),
    });
    expect(throwing.isParallelSafe({})).toBe(false);
    const fixed = defineTool({
      name: 'fixed',
      description: 'd',
      input: z.object({}),
      parallelSafe: true,
      run: () => ({}),
    });
    expect([fixed.parallelSafe, fixed.isParallelSafe({})]).toEqual([true, true]);
  });

  it.each([
    ['', 'is not allowed'],
    ['has space', 'is not allowed'],
    ['x'.repeat(65), 'is not allowed'],
    ['oracle\u200b', 'is not allowed'],
  ])('refuses the tool name %j', (name, message) => {
    const error = definitionError(() => defineTool({ name, description: 'd', input: seed, run: () => null }));
    expect(error.code).toBe('INVALID_DEFINITION');
    expect(error.message).toContain(message);
  });

  it('accepts names of letters, digits, "_", "." and "-" up to 64 characters', () => {
    for (const name of ['a', 'fs__read_file', 'v1.search-web', 'x'.repeat(64)]) {
      expect(defineTool({ name, description: 'd', input: seed, run: () => null }).name).toBe(name);
    }
  });

  it('refuses a tool without a description', () => {
    const error = definitionError(() =>
      defineTool({ name: 'oracle', description: '  ', input: seed, run: () => null }),
    );
    expect(error.message).toBe(
      'tool "oracle" has no description; a model cannot use a tool it is not told about',
    );
  });

  it('refuses a parameter without a description, naming it', () => {
    const error = definitionError(() =>
      defineTool({
        name: 'oracle',
        description: 'd',
        input: z.object({ seed: z.string().describe('ok'), count: z.number(), mood: z.string() }),
        run: () => null,
      }),
    );
    expect(error.code).toBe('INVALID_DEFINITION');
    expect(error.message).toContain('parameters without a description: count, mood');
  });

  it.each([
    ['a bigint', z.bigint().describe('n')],
    ['a date', z.date().describe('when')],
    ['a symbol', z.symbol().describe('s')],
  ])('refuses %s parameter that JSON Schema cannot express', (_label, schema) => {
    const error = definitionError(() =>
      defineTool({ name: 't', description: 'd', input: z.object({ value: schema }), run: () => null }),
    );
    expect(error.code).toBe('INVALID_DEFINITION');
    expect(error.message).toContain('JSON Schema cannot express');
  });

  it('refuses an input that is not a zod object', () => {
    const error = definitionError(() =>
      defineTool({ name: 't', description: 'd', input: z.string() as never, run: () => null }),
    );
    expect(error.message).toContain('must take a zod object schema');
  });

  it('parses parameters, naming each bad field in the error', () => {
    const tool = defineTool({ name: 'oracle', description: 'd', input: seed, run: () => null });
    expect(tool.parse({ seed: 'moss' })).toEqual({ seed: 'moss' });
    expect(() => tool.parse({})).toThrow(/invalid parameters for tool "oracle": seed: Invalid input/);
    expect(() => tool.parse({ seed: 3 })).toThrow(/seed: Invalid input: expected string, received number/);
    expect(() => tool.parse({ seed: 'x', extra: 1 })).toThrow(/unknown field "extra"/);
    expect(() => tool.parse('moss')).toThrow(/\(root\): Invalid input: expected object/);
  });
});
