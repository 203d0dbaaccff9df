import type { JsonValue } from './json.js';

/**
 * `value` with every object's keys in the ledger's canonical order (RFC 8785: sorted by UTF-16 code
 * units), so what a model reads of an output is the same bytes live and in a replay (which hands
 * back the output as the ledger stored it). Arrays keep their order.
 */
export function modelJson(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(modelJson);
  if (value === null || typeof value !== 'object') return value;
  const ordered: { [key: string]: JsonValue } = {};
  for (const key of Object.keys(value).sort()) ordered[key] = modelJson(value[key] as JsonValue);
  return ordered;
}
