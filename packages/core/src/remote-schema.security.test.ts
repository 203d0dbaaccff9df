import { describe, expect, it } from 'vitest';
import { ToolRegistry } from './registry.js';
import { remoteSchemaValidator } from './remote-schema.js';
import { checkRemoteSchema } from './remote-schema-check.js';
import type { ToolResolver } from './resolver.js';
import type { JsonSchema } from './tool.js';

/** A resolver serving one tool with `inputSchema`, echoing what it is called with. */
function serving(inputSchema: JsonSchema): ToolResolver {
  return {
    has: async (name) => name === 'remote',
    describe: async (name) =>
      name === 'remote' ? { name, description: 'A remote tool.', inputSchema } : undefined,
    call: async (_name, parameters) => ({ called: parameters }),
  };
}

function nested(depth: number): JsonSchema {
  let schema: JsonSchema = { type: 'string' };
  for (let level = 0; level < depth; level++) schema = { type: 'array', items: schema };
  return { type: 'object', properties: { value: schema } };
}

const call = (schema: JsonSchema, parameters: unknown) =>
  new ToolRegistry().setResolver(serving(schema)).call('a', { tools: ['remote'] }, 'remote', parameters);

describe('remote schemas that cannot hurt', () => {
  it('refuses a schema nested 10,000 deep without overflowing the stack', async () => {
    expect(() => checkRemoteSchema(nested(10_000))).toThrow(/nests deeper than 64 levels/);
    await expect(call(nested(10_000), { value: 'x' })).rejects.toMatchObject({
      code: 'INVALID_DEFINITION',
      message: expect.stringContaining('the input schema of tool "remote" cannot be used'),
    });
  });

  it('refuses a $ref cycle, directly and through $defs', () => {
    expect(() => checkRemoteSchema({ type: 'object', properties: { self: { $ref: '#' } } })).toThrow(
      /\$ref "#" is part of a cycle/,
    );
    expect(() =>
      checkRemoteSchema({
        type: 'object',
        properties: { a: { $ref: '#/$defs/a' } },
        $defs: { a: { type: 'array', items: { $ref: '#/$defs/b' } }, b: { anyOf: [{ $ref: '#/$defs/a' }] } },
      }),
    ).toThrow(/part of a cycle/);
    expect(() =>
      checkRemoteSchema({ type: 'object', properties: { a: { $ref: 'https://x.example/s' } } }),
    ).toThrow(/not a local JSON pointer/);
    // an acyclic local $ref is fine
    expect(
      checkRemoteSchema({
        type: 'object',
        properties: { a: { $ref: '#/$defs/s' }, b: { $ref: '#/$defs/s' } },
        $defs: { s: { type: 'string' } },
      }),
    ).toEqual({ hasPatterns: false });
  });

  it('refuses a 100,000-value enum', () => {
    const values = Array.from({ length: 100_000 }, (_, index) => `v${index}`);
    expect(() =>
      checkRemoteSchema({ type: 'object', properties: { pick: { type: 'string', enum: values } } }),
    ).toThrow(/more than 20000 values/);
  });

  it('runs a catastrophic pattern in linear time: a long argument is answered, not stalled', async () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: { words: { type: 'string', pattern: '^(\\w+\\s?)*$' } },
      required: ['words'],
    };
    // A backtracking engine needs ~2^n steps here: at 60 characters, longer than the age of the universe.
    const hostile = `${'a '.repeat(30)}!`;
    await expect(call(schema, { words: hostile })).rejects.toMatchObject({
      code: 'INVALID_PARAMETERS',
      message: expect.stringContaining('words: must match pattern'),
    });
    expect(await call(schema, { words: 'two words' })).toEqual({ called: { words: 'two words' } });
    await expect(call(schema, {})).rejects.toMatchObject({
      message: expect.stringContaining('(root): must have required property'),
    });
  });

  it('refuses a pattern RE2 cannot run (a backreference) rather than running it with backtracking', async () => {
    const schema: JsonSchema = { type: 'object', properties: { a: { type: 'string', pattern: '(a+)\\1' } } };
    expect(() => checkRemoteSchema(schema)).toThrow(/cannot run in a linear-time engine/);
    await expect(call(schema, { a: 'aa' })).rejects.toMatchObject({ code: 'INVALID_DEFINITION' });
  });

  it('compiles a validator once per schema object', () => {
    const schema: JsonSchema = { type: 'object', properties: { a: { type: 'string' } } };
    const first = remoteSchemaValidator('remote', schema);
    expect(remoteSchemaValidator('remote', schema)).toBe(first);
    expect(first({ a: 1 })).toMatch(/^a: /);
    expect(first({ a: 'ok' })).toBeUndefined();
  });

  it('validates a schema zod cannot read with ajv instead of letting it through unvalidated', async () => {
    // zod's fromJSONSchema does not read `not`; ajv does.
    const schema: JsonSchema = {
      type: 'object',
      properties: { a: { type: 'string' } },
      not: { required: ['admin'] },
    };
    await expect(call(schema, { a: 'x', admin: true })).rejects.toMatchObject({
      code: 'INVALID_PARAMETERS',
      message: expect.stringContaining('(root): must NOT be valid'),
    });
    expect(await call(schema, { a: 'x' })).toEqual({ called: { a: 'x' } });
  });
});
