import type { ToolShape } from './fingerprint.js';

/**
 * A report that a remote tool is not served as it was approved: `changed` when its description or
 * schema differs from the approved one, or a different server (or remote name) now lists the
 * approved name — calls are refused until `approve(tool, fingerprint)`; `conflicted` when a server
 * lists a name another server serves, or a name in another server's prefix namespace (the newcomer
 * is not served); `withheld` when a listed tool cannot be indexed safely (see `reason`): it is not
 * served, and the rest of the list is; `ajv-validated` when zod cannot read its input schema back:
 * it is served, and its calls are validated against the schema by ajv instead (never unvalidated).
 */
export interface ToolChange {
  kind: 'changed' | 'conflicted' | 'withheld' | 'ajv-validated';
  /** The server that listed it. */
  server: string;
  /** The name agents call it by (with the prefix, if any). */
  tool: string;
  /** The name on the server. */
  remoteName: string;
  /** What was approved (for `conflicted`: what the other server serves); absent when nothing was. */
  before?: ToolShape;
  /** What the server lists now; for `withheld`, its description (cleaned, capped) and `{}` as schema. */
  after: ToolShape;
  /** The {@link fingerprint} of `after`: pass it to `approve` to approve exactly what was reviewed. */
  fingerprint?: string;
  /** Why, in words: what made a tool withheld or conflicted, or which server a moved name was approved for. */
  reason?: string;
}

/**
 * A sink that records tool changes, such as the ledger's `LedgerRecorder`. Tool changes are the MCP
 * client's own records, not the gate's: core's `Recorder` has no such method.
 */
export interface ToolChangeRecorder {
  toolChanged(record: ToolChange): void | Promise<void>;
}

/** True when `value` has a `toolChanged` method. */
export function canRecordChanges(value: unknown): value is ToolChangeRecorder {
  return typeof (value as Partial<ToolChangeRecorder> | undefined)?.toolChanged === 'function';
}
