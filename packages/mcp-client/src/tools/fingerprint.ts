import { createHash } from 'node:crypto';
import type { JsonSchema } from '@toolgate/core';
import canonicalize from 'canonicalize';

/** What a tool is approved as: its description and input schema. */
export interface ToolShape {
  description: string;
  inputSchema: JsonSchema;
}

/**
 * The SHA-256 of a canonical text of a tool's description and schema (object keys sorted), as
 * `sha256:<hex>`: two listings of the same tool compare equal however the server orders its JSON.
 * It is what a change report carries and what `MCPResolver.approve` takes back, so an operator
 * approves exactly the definition that was reviewed.
 */
export function fingerprint(shape: ToolShape): string {
  const text = canonicalize({ description: shape.description, inputSchema: shape.inputSchema }) ?? '';
  return `sha256:${createHash('sha256').update(text).digest('hex')}`;
}
