import type { JsonSchema } from '@toolgate/core';

/** What a tool is approved as: its description and input schema. */
export interface ToolShape {
  description: string;
  inputSchema: JsonSchema;
}

/**
 * A canonical text of a tool's description and schema (object keys sorted), so that two listings
 * of the same tool compare equal however the server orders its JSON.
 */
export function fingerprint(shape: ToolShape): string {
  return canonical({ description: shape.description, inputSchema: shape.inputSchema });
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
