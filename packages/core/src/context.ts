import type { Approver } from './gate-options.js';
import type { JsonObject } from './json.js';
import type { Decision, PolicySubject, PolicyVerdict } from './policy.js';

/** How far a running call has got: MCP's progress notification, as data. */
export interface ToolProgress {
  /** Grows with every report (bytes so far, steps done …). */
  progress: number;
  /** The progress at which the call is done, when known. */
  total?: number;
  /** What is happening, in words (for `shell`: the output that just arrived). */
  message?: string;
}

/** A progress report as a caller's `onProgress` receives it: which call, and how far it got. */
export interface ToolProgressEvent extends ToolProgress {
  callId: string;
  tool: string;
}

/**
 * What a tool's `run(parameters, context)` (and a resolver's `call`) receives besides its
 * parameters: the call's signal, its id, the agent that made it, and a way to report progress.
 */
export interface ToolContext {
  /**
   * Aborted when the caller cancels the call or its time budget passes. A tool that does long work
   * should stop when it fires; the gate stops waiting either way.
   */
  readonly signal: AbortSignal;
  /** The id of this call, as recorded. */
  readonly callId: string;
  /** The name of the agent that made the call. */
  readonly agent: string;
  /**
   * When the call's time runs out, in ms since the epoch (`Date.now()`); `Infinity` for never. A
   * tool or resolver that waits on something slow (a server, a process) waits until here and no
   * longer, with no default budget of its own.
   */
  readonly deadline: number;
  /** Tells the caller how far the call has got; ignored once the call has ended. */
  reportProgress(progress: ToolProgress): void;
  /**
   * Asks policy, while the call runs, about something it found and is about to touch (a redirect
   * hop's host): the verdict for this call's agent and tool on `subject`, an `ask` put to the gate's
   * approver, recorded as one more `policy.decided` of this call. Touch the subject only when
   * `allowed`. Without a gate (a test calling `run` directly) everything is allowed.
   */
  authorize(subject: PolicySubject): Promise<Authorization>;
  /**
   * Policy's verdict on `subject` for this call's agent and tool (or `options.tool`), at once: no
   * approver is asked and nothing is recorded. For filtering many things a call found (each path a
   * search meets); say in the result what was withheld. Without a gate everything is allowed.
   */
  judge(subject: PolicySubject, options?: JudgeOptions): PolicyVerdict;
  /**
   * False only when policy says no path can change its verdict on this call's tool (or
   * `options.tool`): {@link judge} would then answer every path as it answers `{}`, and a tool
   * about to judge many paths may skip them. Absent or true: judge each path.
   */
  judgesPaths?(options?: JudgeOptions): boolean;
}

/** What {@link ToolContext.authorize} answers. */
export interface Authorization {
  /** True when the call may touch the subject: policy allowed it, or the approver approved an `ask`. */
  readonly allowed: boolean;
  /** What policy said, before any approver. */
  readonly verdict: Decision;
  /** Why, as recorded: policy's reason naming the subject, and the approver's answer to an `ask`. */
  readonly reason: string;
  /** The rule that decided; absent when the default did. */
  readonly rule?: number;
}

/** What {@link ToolContext.judge} may be told. */
export interface JudgeOptions {
  /**
   * Judge as if for this tool instead of the call's own: a search asks what policy says about
   * `read_file` of each file it would read. It only ever narrows what the tool does.
   */
  tool?: string;
}

/** What one call through an agent handle (or `ToolRegistry.call`) may be given. */
export interface CallOptions {
  /** Aborting it ends the call with a CANCELLED error result and aborts the tool's signal. */
  signal?: AbortSignal;
  /** Receives the tool's progress reports while the call runs. A listener that throws is ignored. */
  onProgress?: (progress: ToolProgressEvent) => void;
  /**
   * An approval decided outside the gate (a framework's approval UI). Used only when policy says
   * `ask` for this call, in place of the gate's approver, and recorded as its answer would be
   * (`…; approved by <by>`). It only ever narrows: when policy allows, a refusal (`approved:
   * false`) refuses the call and is recorded as the answer (an app's own approval policy said no),
   * an approval adds nothing; when policy denies it is ignored. Only `approved: true` approves.
   */
  decision?: ExternalDecision;
  /** Decides this call's `ask` in place of the gate's approver (a gateway asks the calling client). */
  approver?: Approver;
  /**
   * This call's time budget in ms, in place of the tool's own and the gate's default (a server that
   * takes its budget from a config it reloads passes it per call). `Infinity` for none.
   */
  timeoutMs?: number;
  /**
   * When the caller stops waiting, in ms since the epoch (`Date.now()`): the call's budget ends here
   * at the latest, and the tool's context says so (`context.deadline`).
   */
  deadline?: number;
  /**
   * Runs what starts observing the call in the caller's own async context: an
   * `AsyncLocalStorage.snapshot()` taken where the framework handed the call over. An adapter that
   * runs a step's calls as one batch passes each call's, so a gate observer's span nests under that
   * call's own framework span, not the first one's. It changes nothing about the call.
   */
  callerContext?: <Result>(start: () => Result) => Result;
}

/** A decision on an `ask` call made outside the gate: who decided, and why. */
export interface ExternalDecision {
  /** True runs the call; anything else refuses it (PERMISSION_DENIED). */
  approved: boolean;
  /** Who decided (a user id, `"ai-sdk approval"`), named in the recorded reason. */
  by: string;
  /** Why, when said; appended to the recorded reason. */
  reason?: string;
  /**
   * The exact parameters the decision was made for (those of `check()`'s `request`). When given,
   * the decision answers only a call with these parameters, and only one call: an altered or
   * reused decision is a refusal that says so.
   */
  parameters?: JsonObject;
}
