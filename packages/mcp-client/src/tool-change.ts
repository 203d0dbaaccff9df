import type { ToolShape } from './fingerprint.js';

/**
 * A report that a remote tool is not served as it was approved: `changed` when its description or
 * schema differs from the approved one (calls are refused until `approve`), `conflicted` when a
 * server newly lists a name another server already serves (the newcomer is not served).
 */
export interface ToolChange {
  kind: 'changed' | 'conflicted';
  /** The server that listed it. */
  server: string;
  /** The name agents call it by (with the prefix, if any). */
  tool: string;
  /** The name on the server. */
  remoteName: string;
  /** What was approved (for `conflicted`: what the other server serves). */
  before: ToolShape;
  /** What the server lists now. */
  after: ToolShape;
}

/**
 * A sink that records tool changes, such as a ledger recorder. A core `Recorder` with a
 * `toolChanged` method qualifies; a recorder without one is not written to.
 */
export interface ToolChangeRecorder {
  toolChanged(record: ToolChange): void | Promise<void>;
}

/** True when `value` has a `toolChanged` method. */
export function canRecordChanges(value: unknown): value is ToolChangeRecorder {
  return typeof (value as Partial<ToolChangeRecorder> | undefined)?.toolChanged === 'function';
}
