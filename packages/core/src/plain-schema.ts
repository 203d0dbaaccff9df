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
  if (Array.isArray(value)) return value.map((item) => (isDropped(item) ? null : plainValue(item)));
  const plain: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const child = (value as Record<string, unknown>)[key];
    if (key === standardKey || isDropped(child)) continue;
    plain[key] = plainValue(child);
  }
  return plain;
}

function isDropped(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}
