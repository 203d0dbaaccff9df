import type { CallOptions } from './context.js';
import type { ToolGate } from './gate.js';
import type { Limits } from './pipeline/cap.js';
import type { Grant } from './pipeline/grant.js';
import type { CallObserver } from './pipeline/observe.js';
import type { Recording } from './pipeline/recording.js';
import type { Policy, PolicyRequest } from './policy.js';
import type { Recorder } from './recorder.js';

/** A request an approver is asked to decide (policy said `ask`). */
export interface ApprovalRequest extends PolicyRequest {
  callId: string;
  reason: string;
}

/** An approver's answer in full: whether it approves, and optionally who decided, how far it reaches, and why. */
export interface ApproverAnswer {
  approved: boolean;
  reason?: string;
  /** Who decided (a user id), recorded in the answer. */
  by?: string;
  /** How far the approval reaches (e.g. `session`), recorded in the answer. */
  scope?: string;
}

/** Decides `ask` calls: true (or `{ approved: true }`) lets the call run. */
export type Approver = (
  request: ApprovalRequest,
) => boolean | ApproverAnswer | Promise<boolean | ApproverAnswer>;

/** What a {@link ToolGate} is built with. Every input that is not a pure function of the run is injected. */
export interface ToolGateOptions {
  /** Default: allow every granted call (the grant is still the boundary; presets are `@toolgate/builtins`' `policies`). */
  policy?: Policy;
  /** Decides `ask`. Without one, `ask` is a deny that says so. */
  approver?: Approver;
  /** Where every call is recorded. Default: nothing is recorded. */
  recorder?: Recorder;
  /** Makes call ids. Default: `crypto.randomUUID`; inject a counter for byte-identical ledgers. */
  callIds?: () => string;
  /**
   * What one call hands back at most: `outputChars` (the output's JSON text and each text part,
   * default 100,000), `contentBytes` (each binary part, default 5 MiB), `errorChars` (an error
   * message, default 10,000). Applied once, by the gate; nothing below it caps a result.
   */
  limits?: Partial<Limits>;
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
   * A recorded run to replay (the gate's one replay seam): it supplies each call's verdict and
   * answer, output and duration in place of policy, the approver, the tool and the clock.
   */
  recording?: Recording;
  /**
   * Watches every call (`@toolgate/otel`'s `otelObserver` makes spans and metrics of them): told
   * when a call arrives, how policy decided it and how it ended, with where its last record landed.
   * It only watches; what it throws is ignored.
   */
  observer?: CallObserver;
}

/** One call as {@link ToolGate.call} takes it: the tool's name and its parameters. */
export interface ToolRequest {
  tool: string;
  parameters?: unknown;
}

/** What one {@link ToolGate.call} is made under: the caller's grant, and the call's own options. */
export interface GateCallOptions extends CallOptions {
  /** Who is calling and which tools they may call. */
  grant: Grant;
}

/** One call as the gate's pipeline runs it. @internal */
export interface GateRun {
  grant: Grant;
  tool: unknown;
  parameters: unknown;
  /** Where this call's records go (a batch buffers them); default the gate's recorder. */
  recorder?: Recorder;
  options?: CallOptions | undefined;
}
