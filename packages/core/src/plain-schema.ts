import type { JsonSchema } from './tool.js';

/** The key zod (and any Standard Schema) hangs its validator on; never part of a JSON Schema. */
const standardKey = '~standard';

/**
 * A JSON Schema as plain data: fresh objects and arrays holding only their own enumerable keys,
 * without `~standard` (zod 4 puts a non-enumerable one on what `z.toJSONSchema` returns, which
 * frameworks mistake for a zod schema), functions, symbols and `undefined`. The result survives
 * `JSON.parse(JSON.stringify(…))` unchanged.
 */
export function plainSchema(schema: JsonSchema): JsonSchema {
  return plainValue(schema) as JsonSchema;
}

function plainValue(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => (notJson(item) ? null : plainValue(item)));
  const plain: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const child = (value as Record<string, unknown>)[key];
    if (notSchemaField(key, child)) continue;
    plain[key] = plainValue(child);
  }
  return plain;
}

/**
 * True for a field a plain JSON Schema never holds: the `~standard` key, or a value that is a
 * function, a symbol or `undefined`. Shared with the prompt cleaner of tool descriptions.
 * @internal
 */
export function notSchemaField(key: string, value: unknown): boolean {
  return key === standardKey || notJson(value);
}

/** True for a value JSON cannot hold (an array item of this kind becomes `null`). @internal */
export function notJson(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}
