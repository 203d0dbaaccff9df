import type { ToolDescription } from '@toolgate/core';
import { promptText, remoteSchemaFallback } from '@toolgate/core/internal';
import type { McpConnection } from '../transport/connection.js';
import type { Approvals } from './approvals.js';
import type { ToolShape } from './fingerprint.js';
import { readTool, type ToolExtras } from './read-tool.js';
import type { ToolChange } from './tool-change.js';
import { OverLimitTool } from './tool-list.js';

/** A tool an attached server serves, by its local name. */
export interface Entry {
  connection: McpConnection;
  remoteName: string;
  /** As listed. The same object while the listing does not change, so its validator is reused. */
  shape: ToolShape;
  print: string;
  /** Set while the listed tool is not what was approved (another shape, or another server). */
  changed: boolean;
  /** Its title, annotations, icons and output schema as last listed (hints for clients, not approved). */
  extras: ToolExtras;
}

/** What indexing reads and updates: the resolver's served tools, approvals and last reports. */
export interface IndexState {
  readonly entries: Map<string, Entry>;
  readonly approvals: Approvals;
  /** Per server: for each name, what was last reported about it, so a standing change is reported once. */
  readonly notices: Map<string, Map<string, string>>;
  /** The other attached server whose prefix makes `name` its own (`fs__read` belongs to prefix `fs`). */
  prefixOwner(name: string, server: string): { server: string; prefix: string } | undefined;
  /** When set, a name with no approval is withheld (a change to review) instead of approved as listed. */
  withholdNew?: boolean;
}

/**
 * Applies one server's full tool list, all of it, whatever it holds: each tool is read on its own
 * (a tool that cannot be read is withheld), the server's other tools are updated, its unlisted
 * tools dropped and their approvals retired. Returns every change to report — changed,
 * conflicted and withheld — each once for as long as it stands. Never throws on a tool's content.
 */
export function indexTools(
  state: IndexState,
  connection: McpConnection,
  tools: readonly unknown[],
): ToolChange[] {
  const server = connection.name;
  const changes: ToolChange[] = [];
  const listed = new Set<string>();
  const twice = new Set<string>();
  const previousNotices = state.notices.get(server);
  const notices = new Map<string, string>();
  const notice = (change: ToolChange, key: string) => {
    const full = `${change.kind}\u0000${key}`;
    if (notices.has(change.tool)) return;
    notices.set(change.tool, full);
    if (previousNotices?.get(change.tool) !== full) changes.push(change);
  };

  for (const raw of tools) {
    if (raw instanceof OverLimitTool) {
      // Withheld while listing, for breaking the server's limits: nothing of it was kept to read.
      const prefix = connection.config.prefix;
      const name = promptText(prefix === undefined ? raw.name : `${prefix}__${raw.name}`, 200);
      const after = { description: '', inputSchema: {} };
      const remoteName = promptText(raw.name, 200);
      notice({ kind: 'withheld', server, tool: name, remoteName, after, reason: raw.reason }, raw.reason);
      continue;
    }
    const tool = readTool(raw, connection.config.prefix);
    if (!tool.readable) {
      const { name, remoteName, after, reason } = tool;
      notice({ kind: 'withheld', server, tool: name, remoteName, after, reason }, reason);
      continue;
    }
    const { name, remoteName, shape, print, extras } = tool;
    const base = { server, tool: name, remoteName, after: shape, fingerprint: print };
    if (listed.has(name) || twice.has(name)) {
      notice({ ...base, kind: 'withheld', reason: 'the server lists this name twice' }, 'twice');
      twice.add(name);
      if (listed.delete(name)) state.entries.delete(name);
      continue;
    }
    const owner = state.prefixOwner(name, server);
    if (owner) {
      const reason = `the name is in the namespace of MCP server "${owner.server}" (prefix "${owner.prefix}")`;
      notice({ ...base, kind: 'conflicted', reason }, print);
      continue;
    }
    const approval = state.approvals.get(name);
    const existing = state.entries.get(name);
    const ownsApproval = approval?.server === server && approval.remoteName === remoteName;
    if (existing && existing.connection !== connection) {
      // The approved server takes its name back from a server that holds it unapproved.
      const heldUnapproved = existing.changed && ownsApproval;
      if (!heldUnapproved) {
        const reason = `MCP server "${existing.connection.name}" already serves this name`;
        notice({ ...base, kind: 'conflicted', before: existing.shape, reason }, print);
        continue;
      }
    }
    let changed = false;
    let reason: string | undefined;
    if (approval === undefined && state.withholdNew) {
      changed = true;
      reason = 'it is new: no review names it (new_tools: withhold)';
    } else if (approval === undefined) {
      state.approvals.set(name, { server, remoteName, print, shape });
    } else if (!ownsApproval) {
      changed = true;
      reason = `approved as "${approval.remoteName}" on MCP server "${approval.server}", now listed by MCP server "${server}"`;
    } else {
      changed = approval.print !== print;
    }
    if (changed) {
      const change: ToolChange = { ...base, kind: 'changed', before: approval?.shape };
      if (change.before === undefined) delete change.before;
      if (reason !== undefined) change.reason = reason;
      notice(change, `${print} ${reason ?? ''}`);
    }
    // An unchanged listing keeps the shape object it had, so core's compiled validator is reused.
    const kept =
      existing?.connection === connection && existing.print === print
        ? existing.shape
        : approval?.print === print
          ? approval.shape
          : shape;
    state.entries.set(name, { connection, remoteName, shape: kept, print, changed, extras });
    listed.add(name);
    if (!changed) {
      const fallback = remoteSchemaFallback(kept.inputSchema);
      if (fallback !== undefined) {
        const reason = `zod cannot read its input schema back (${fallback}); its calls are validated by ajv`;
        notice({ ...base, kind: 'ajv-validated', reason }, print);
      }
    }
  }

  for (const [name, entry] of state.entries) {
    if (entry.connection === connection && !listed.has(name)) state.entries.delete(name);
  }
  state.approvals.keepListed(server, listed);
  state.notices.set(server, notices);
  return changes;
}

/** Drops the tools a connection that failed to attach had indexed. */
export function forgetTools(entries: Map<string, Entry>, connection: McpConnection): void {
  for (const [name, entry] of entries) if (entry.connection === connection) entries.delete(name);
}

/**
 * A served tool's description and schema as approved: a changed tool is described as it was
 * approved, so its new text never reaches a model before approval.
 */
export function describeApproved(
  name: string,
  entry: Entry | undefined,
  approvals: Approvals,
): ToolDescription | undefined {
  if (!entry) return undefined;
  const shape = entry.changed ? (approvals.get(name)?.shape ?? entry.shape) : entry.shape;
  return { name, description: shape.description, inputSchema: shape.inputSchema };
}
