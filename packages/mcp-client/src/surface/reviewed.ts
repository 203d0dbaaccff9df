import type { JsonSchema } from '@toolgate/core';
import type { Approvals } from '../tools/approvals.js';
import type { Entry } from '../tools/tool-index.js';

/** A tool definition as an operator reviewed it: where it is served, and its text. */
export interface ReviewedTool {
  server: string;
  remoteName: string;
  /** The {@link fingerprint} of its description and input schema. */
  fingerprint: string;
  description: string;
  inputSchema: JsonSchema;
}

/** Approves each reviewed definition (a gateway's lock file) as it was reviewed, before any server lists. */
export function seedReviews(
  approvals: Approvals,
  reviewed: ReadonlyMap<string, ReviewedTool> | undefined,
): void {
  for (const [name, tool] of reviewed ?? []) {
    const { server, remoteName, fingerprint: print, description, inputSchema } = tool;
    approvals.set(name, { server, remoteName, print, shape: { description, inputSchema } });
  }
}

/** A served tool as approved now, for a lock file; undefined while it awaits approval. */
export function reviewOf(entry: Entry | undefined): ReviewedTool | undefined {
  if (entry === undefined || entry.changed) return undefined;
  const { description, inputSchema } = entry.shape;
  return {
    server: entry.connection.name,
    remoteName: entry.remoteName,
    fingerprint: entry.print,
    description,
    inputSchema,
  };
}
