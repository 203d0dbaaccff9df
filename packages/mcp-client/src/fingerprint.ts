import type { JsonSchema } from '@toolgate/core';
import canonicalize from 'canonicalize';

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
  return canonicalize({ description: shape.description, inputSchema: shape.inputSchema }) ?? '';
}
