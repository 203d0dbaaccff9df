import type { Policy, PolicyRequest } from './policy.js';
import type { Recorder } from './recorder.js';

/** A request an approver is asked to decide (policy said `ask`). */
export interface ApprovalRequest extends PolicyRequest {
  callId: string;
  reason: string;
}

/** Decides `ask` calls: true (or `{ approved: true }`) lets the call run. */
export type Approver = (
  request: ApprovalRequest,
) =>
  | boolean
  | { approved: boolean; reason?: string }
  | Promise<boolean | { approved: boolean; reason?: string }>;

/** What a {@link ToolGate} is built with. Every input that is not a pure function of the run is injected. */
export interface ToolGateOptions {
  /** Default: {@link policies.allowAll} (the grant is still the boundary). */
  policy?: Policy;
  /** Decides `ask`. Without one, `ask` is a deny that says so. */
  approver?: Approver;
  /** Where every call is recorded. Default: nothing is recorded. */
  recorder?: Recorder;
  /** Makes call ids. Default: `crypto.randomUUID`; inject a counter for byte-identical ledgers. */
  callIds?: () => string;
  /** The cap on one output's JSON text, in characters, as returned (escaping counted). Default 100,000. */
  maxOutputChars?: number;
  /**
   * The cap on one error message, in JSON-escaped characters, plus a marker. Default 10,000. Apart
   * from `maxOutputChars`, so a replay (which lifts the output cap) words errors the same way.
   */
  maxErrorChars?: number;
  /**
   * The time budget of one call, in ms, for a tool that sets none of its own: past it the tool's
   * signal is aborted and the call ends with TIMEOUT. `Infinity` for none. Default 600,000 (10 min).
   */
  timeoutMs?: number;
  /**
   * Reads the time in ms for `durationMs`: read once when a call arrives and once when it ends.
   * Default `performance.now`; inject a deterministic one for byte-identical ledgers.
   */
  clock?: () => number;
  /**
   * Says how long a call took instead of the clock, when it returns a number: a replay answers with
   * the recorded duration. Asked once per call, as it ends.
   */
  durationOf?: (callId: string) => number | undefined;
  /**
   * The cap on one binary content part (image, audio, embedded blob), in decoded bytes; a part over
   * it is replaced by a text part saying what was omitted. Default 5 MiB. Text parts are capped
   * one by one at `maxOutputChars`.
   */
  maxContentBytes?: number;
  /**
   * The bound on one call's parameters, in characters of their JSON text (escaping counted, as for
   * `maxOutputChars`). Parameters past it are refused with INVALID_PARAMETERS before anything runs;
   * the ledger records only their size and SHA-256 (`{ omitted: { chars, sha256 } }`). Default
   * 1,048,576 (1 MiB); `Infinity` for none.
   */
  maxParameterChars?: number;
}
