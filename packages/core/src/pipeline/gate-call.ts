import type { CallOptions, ExternalDecision } from '../context.js';
import type { Approver } from '../gate-options.js';
import type { JsonObject } from '../json.js';
import type { Policy, PolicyRequest } from '../policy.js';
import type { Recorder } from '../recorder.js';
import type { CallAuthorityOptions } from './authorize.js';
import type { DecideOptions } from './decide.js';
import type { DispatchedCall } from './dispatch.js';
import type { Grant } from './grant.js';
import type { CallObservation } from './observe.js';
import type { RecordedCall } from './record.js';
import type { RecordedDecision } from './recording.js';
import type { ResolvedTool } from './resolve.js';

/** Parameters before the validate station has run: none yet. */
const noParameters: JsonObject = Object.freeze({}) as JsonObject;
/** The request before the subject station has made it. */
const noRequest: PolicyRequest = Object.freeze({ agent: '', tool: '', parameters: noParameters });

/** What a gate binds every call to, made once per gate. */
export interface GateBinding {
  readonly policy: Policy;
  readonly approver: Approver | undefined;
  /** The recorder of a call that names none of its own. */
  readonly recorder: Recorder;
}

/** One call as asked of the gate (a `GateRun`): whose grant, which tool, and the call's options. */
export interface AskedCall {
  readonly grant: Grant;
  readonly tool: unknown;
  readonly recorder?: Recorder | undefined;
  readonly options?: CallOptions | undefined;
}

const noOptions: CallOptions = Object.freeze({});

/**
 * One call through {@link ToolGate} as its stations see it, in one object: what the record station
 * records it as ({@link RecordedCall}), what the decide station asks with ({@link DecideOptions}),
 * what the dispatch station runs it under ({@link DispatchedCall}) and what the running tool asks
 * policy through ({@link CallAuthorityOptions}, made into an authority only if the tool asks). The
 * gate fills it in station by station; one allocation a call instead of one a station, which is
 * most of the gate's own cost when a call does little.
 * @internal
 */
export class GateCall implements RecordedCall, DecideOptions, DispatchedCall, CallAuthorityOptions {
  readonly recorder: Recorder;
  readonly callId: string;
  readonly agent: string;
  /** The tool as the caller named it. */
  readonly tool: string;
  readonly policy: Policy;
  readonly approver: Approver | undefined;
  readonly decision: ExternalDecision | undefined;
  readonly signal: AbortSignal | undefined;
  readonly onProgress: CallOptions['onProgress'] | undefined;
  readonly deadline: number | undefined;
  /** What observes the call, when the gate has an observer. */
  observation: CallObservation | undefined = undefined;
  /** What policy judges: set by the subject station. */
  request: PolicyRequest = noRequest;
  /** The validated parameters: set by the validate station. */
  parameters: JsonObject = noParameters;
  /** The gateway client of the call: set with the request. */
  client: string | undefined = undefined;
  /** The narrowed agent's path: set with the request. */
  agentPath: string | undefined = undefined;
  /** The gate's clock when the call arrived: its duration is measured from here. */
  readonly started: number;
  /** True once a station has waited for a promise since the call arrived. */
  waited = false;
  /** Where the tool lives: set by the resolve station. */
  resolved: ResolvedTool | undefined = undefined;
  /** The recording's decision, when the gate replays one: set by the decide station. */
  replayed: RecordedDecision | undefined = undefined;
  /** The call's budget, in ms: set before dispatch. */
  timeoutMs = Number.POSITIVE_INFINITY;
  /** The `performance.now()` the budget started at, when nothing was awaited since the call began. */
  startedAt: number | undefined = undefined;
  /** The running tool asks policy with this call's own options (see `callAuthority`). */
  readonly authority: CallAuthorityOptions;

  /** The caller's own options (`noOptions` when none). */
  readonly options: CallOptions;

  constructor(bound: GateBinding, asked: AskedCall, callId: string, started: number) {
    const options = asked.options ?? noOptions;
    this.options = options;
    this.recorder = asked.recorder ?? bound.recorder;
    this.callId = callId;
    this.started = started;
    this.agent = asked.grant.agent;
    this.tool = typeof asked.tool === 'string' ? asked.tool : String(asked.tool);
    this.policy = bound.policy;
    this.approver = options.approver ?? bound.approver;
    this.decision = options.decision;
    this.signal = options.signal;
    this.onProgress = options.onProgress;
    this.deadline = options.deadline;
    this.authority = this;
  }

  /** The subject station's request, kept for the stations after it. */
  judged(request: PolicyRequest, parameters: JsonObject): void {
    this.request = request;
    this.parameters = parameters;
    this.client = request.client;
    this.agentPath = request.agentPath;
  }
}
