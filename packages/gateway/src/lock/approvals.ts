import { messageOf } from '@toolgate/core';
import type { MCPResolver, ReviewedTool } from '@toolgate/mcp-client';
import { lockPathOf, writeLock } from './lock-file.js';

/**
 * With no lock file yet: writes one of every tool `resolver` serves now (trust on first use, as a
 * package manager does) beside the config at `source`, and tells the operator to review it.
 */
export async function writeFirstLock(
  resolver: MCPResolver,
  source: string,
  log: (line: string) => void,
): Promise<void> {
  const path = lockPathOf(source);
  const tools = new Map<string, ReviewedTool>();
  for (const name of resolver.servedNames()) {
    const review = resolver.reviewOf(name);
    if (review !== undefined) tools.set(name, review);
  }
  await writeLock(path, tools);
  log(
    `wrote ${path} with the ${tools.size} tools served now: review it and commit it; ` +
      'a tool that differs from it at a later start is withheld until approved',
  );
}

/**
 * Applies the config's `approve:` (tool → fingerprint) to `resolver`. An approval of a tool that is
 * not withheld now, or changed again since it was reviewed, approves nothing, and the operator is
 * told why unless the tool is served as it is.
 */
export function approveAll(
  resolver: MCPResolver,
  approve: Readonly<Record<string, string>>,
  log: (line: string) => void,
): void {
  for (const [tool, print] of Object.entries(approve)) {
    try {
      resolver.approve(tool, print);
    } catch (error) {
      if (!resolver.servedNames().includes(tool)) log(`approve ${tool}: ${messageOf(error)}`);
    }
  }
}
