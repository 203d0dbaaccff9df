import { ToolgateError } from '@toolgate/core';
import type { Approvals } from './approvals.js';
import { fingerprint, type ToolShape } from './fingerprint.js';
import type { Entry } from './tool-index.js';
import { unknownTool } from './tool-names.js';

/**
 * Approves the tool `entry` serves as `name`, as it was reviewed (`reviewed`: the fingerprint of the
 * reported change, or the reviewed definition). TOOL_CHANGED, approving nothing, when the tool
 * listed now is not that one; UNKNOWN_TOOL when no entry serves the name.
 */
export function approveTool(options: {
  approvals: Approvals;
  entry: Entry | undefined;
  name: string;
  reviewed: string | ToolShape;
}): void {
  const { approvals, entry, name, reviewed } = options;
  if (!entry) throw unknownTool(name);
  const expected = typeof reviewed === 'string' ? reviewed : fingerprint(reviewed);
  if (entry.print !== expected) {
    throw new ToolgateError(
      'TOOL_CHANGED',
      `tool "${name}" on MCP server "${entry.connection.name}" is no longer what was reviewed: ` +
        `it is listed now with fingerprint ${entry.print}, not ${expected.slice(0, 80)}; ` +
        'nothing was approved — review its latest reported change and approve that',
    );
  }
  approvals.set(name, {
    server: entry.connection.name,
    remoteName: entry.remoteName,
    print: entry.print,
    shape: entry.shape,
  });
  entry.changed = false;
}

/**
 * The refusal of a call to a tool that changed since it was approved; `approveHint` says how to
 * approve it in the words of the tool the reader holds (default: `resolver.approve(…)`).
 */
export function changedToolError(name: string, server: string, approveHint?: string): ToolgateError {
  return new ToolgateError(
    'TOOL_CHANGED',
    `tool "${name}" on MCP server "${server}" is not what was approved (its description, ` +
      'its schema or its server changed); it is refused until an operator reviews the reported change ' +
      `and approves it (${approveHint ?? `resolver.approve("${name}", change.fingerprint)`})`,
  );
}
