import { AgentHandle } from './agent-handle.js';
import type { CallCheck } from './call-check.js';
import { checkTimeout } from './deadlines.js';
import { ToolgateError } from './errors.js';
import type { Approver, GateCallOptions, GateRun, ToolGateOptions, ToolRequest } from './gate-options.js';
import { type Manifest, parseManifest } from './manifest.js';
import { admit } from './pipeline/admit.js';
import { type PendingAsk, recordAsked } from './pipeline/asked.js';
import { type CappedOutput, capOutputOf, defaultLimits, errorDataOf, type Limits } from './pipeline/cap.js';
import { type Decided, decide, decidedOf, decisionSentence } from './pipeline/decide.js';
import { dispatch } from './pipeline/dispatch.js';
import { type GateBinding, GateCall } from './pipeline/gate-call.js';
import type { Grant } from './pipeline/grant.js';
import { type CallObserver, observeCall, observeDecided, observeRecorded } from './pipeline/observe.js';
import {
  checkParameterChars,
  omittedParameters,
  oversizedParameters,
  parametersTooLarge,
} from './pipeline/parameter-bound.js';
import { type Ending, judgedOf, recordCalled, recordDecided, recordReturned } from './pipeline/record.js';
import type { Recording } from './pipeline/recording.js';
import type { ResolvedTool } from './pipeline/resolve.js';
import { type Assessed, assessed } from './pipeline/subject.js';
import { allowAll, type Policy, type PolicyRequest, type PolicyVerdict } from './policy.js';
import { noopRecorder, type Recorder } from './recorder.js';
import type { ToolRegistry } from './registry.js';
import type { ToolResult } from './tool-result.js';

/**
 * The gate between agents and tools, and the only way a call runs: grant → resolve → validate →
 * subject → decide → dispatch → cap → record, one station a file under `pipeline/`. It binds the
 * registry, policy, approver, limits and recorder once; each call brings its grant (and, if it
 * likes, its own approver or decision). {@link ToolGate.forAgent} hands an agent a handle bound
 * to its manifest.
 *
 * @example
 * const gate = new ToolGate(registry, { policy: parsePolicyText(readFileSync('policy.yaml', 'utf8')), recorder });
 * const teller = gate.forAgent({ name: 'fortune-teller', tools: ['oracle'] });
 * const result = await teller.callTool('oracle', { seed: 'moss' });
 */
export class ToolGate {
  readonly registry: ToolRegistry;
  readonly policy: Policy;
  readonly recorder: Recorder;
  /** What one call hands back at most: applied once, here. */
  readonly limits: Limits;
  /** The default time budget of one call, in ms (`Infinity` for none). */
  readonly timeoutMs: number;
  readonly #approver: Approver | undefined;
  readonly #callIds: () => string;
  readonly #clock: () => number;
  /** The clock is `performance.now()`: a call that has not waited since it started lends dispatch its start. */
  readonly #clockIsPerformance: boolean;
  readonly #recording: Recording | undefined;
  readonly #replayLimits: Limits;
  readonly #observer: CallObserver | undefined;
  readonly #binding: GateBinding;

  constructor(registry: ToolRegistry, options: ToolGateOptions = {}) {
    this.registry = registry;
    this.policy = options.policy ?? allowAll();
    this.recorder = options.recorder ?? noopRecorder;
    const limits = { ...defaultLimits, ...options.limits };
    this.limits = Object.freeze({ ...limits, parameterChars: checkParameterChars(limits.parameterChars) });
    this.#approver = options.approver;
    this.#callIds = options.callIds ?? (() => crypto.randomUUID());
    this.timeoutMs =
      options.timeoutMs === undefined ? 600_000 : checkTimeout(options.timeoutMs, 'the gate option');
    // the global `performance` is a getter in Node: read it once, not per call
    const monotonic = performance;
    this.#clock = options.clock ?? (() => monotonic.now());
    this.#clockIsPerformance = options.clock === undefined;
    this.#recording = options.recording;
    this.#observer = options.observer;
    this.#binding = { policy: this.policy, approver: this.#approver, recorder: this.recorder };
    // recorded outputs were capped when they were recorded; errors are capped again, the same way
    this.#replayLimits = { ...this.limits, outputChars: Infinity, contentBytes: Infinity };
  }

  /** A handle bound to one agent's manifest (validated here). */
  forAgent(manifest: Manifest | unknown): AgentHandle {
    return new AgentHandle(this, parseManifest(manifest));
  }

  /**
   * Runs one call for the holder of `options.grant`, recording it to the gate's recorder. Nothing
   * the caller sends makes it throw: a violation, an unknown tool, bad parameters, a denial or a
   * failing tool all come back as a result with `isError: true`. Only a failing recorder rejects
   * (a run is never silently unrecorded).
   *
   * @example
   * const result = await gate.call({ tool: 'fs__read_file', parameters: { path: 'a.md' } }, {
   *   grant: patternGrant('desktop', ['fs__read_*']),
   *   approver: askTheClient,
   * });
   */
  call(request: ToolRequest, options: GateCallOptions): Promise<ToolResult> {
    const { grant, ...rest } = options;
    return this.run({ grant, tool: request.tool, parameters: request.parameters, options: rest });
  }

  /**
   * The pipeline, top to bottom. Records `tool.called`, `policy.decided` (once policy was asked)
   * and `tool.returned`. Each station below is a step that goes on to the next at once when it
   * finished synchronously, and after its promise when it did not: a call whose stations are all
   * synchronous (an in-process tool, a plain subject, no approver asked, a synchronous recorder)
   * settles with one promise, made here.
   * @internal
   */
  run(run: GateRun): Promise<ToolResult> {
    try {
      const result = this.#arrive(run);
      return result instanceof Promise ? result : Promise.resolve(result);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** The call arrives: observed, bounded, recorded as called. */
  #arrive(run: GateRun): Reply {
    const started = this.#clock();
    const call = new GateCall(this.#binding, run, this.#callIds(), started);
    if (this.#observer !== undefined) {
      const { callId, agent, tool, options } = call;
      const observer = this.#observer;
      const observed = { callId, agent, tool, granted: run.grant.granted };
      call.observation =
        options.callerContext === undefined
          ? observeCall(observer, observed)
          : options.callerContext(() => observeCall(observer, observed));
    }
    // parameters past the bound are refused before anything runs, and never reach the ledger
    const oversized = oversizedParameters(run.parameters, this.limits.parameterChars);
    if (oversized !== undefined) return this.#refuseOversized(call, oversized);
    const called = recordCalled(call, run.parameters);
    if (called instanceof Promise) {
      call.waited = true;
      return called.then(() => this.#judge(call, run));
    }
    return this.#judge(call, run);
  }

  async #refuseOversized(call: GateCall, oversized: string): Promise<ToolResult> {
    const omitted = recordCalled(call, await omittedParameters(oversized));
    if (omitted instanceof Promise) await omitted;
    const error = parametersTooLarge(call.tool, oversized.length, this.limits.parameterChars);
    return this.#finish(call, { error });
  }

  /** Grant, resolve, validate and subject; a refusal among them ends the call. */
  #judge(call: GateCall, run: GateRun): Reply {
    let pending: Assessed | Promise<Assessed>;
    try {
      pending = this.#assess(run.grant, run.tool, run.parameters);
    } catch (error) {
      return this.#finish(call, { error });
    }
    return this.#onward(call, pending, this.#decide);
  }

  /** Policy's verdict (or the recording's), and the answer to an `ask`. */
  #decide(call: GateCall, assessed: Assessed): Reply {
    let deciding: Decided | Promise<Decided>;
    try {
      call.resolved = assessed.admitted.resolved;
      call.judged(assessed.request, assessed.admitted.parameters);
      const replayed = this.#recording?.decision({ callId: call.callId, request: call.request });
      call.replayed = replayed;
      deciding = replayed ? decidedOf(replayed) : decide(call);
    } catch (error) {
      return this.#finish(call, { error });
    }
    return this.#onward(call, deciding, this.#recordDecision);
  }

  /**
   * Goes on to `next` with what a station gave: at once when it is no promise, else when it
   * settles (the call has then waited); a station that rejects ends the call with its error.
   */
  #onward<T>(
    call: GateCall,
    pending: T | Promise<T>,
    next: (this: ToolGate, call: GateCall, value: T) => Reply,
  ): Reply {
    if (!(pending instanceof Promise)) return next.call(this, call, pending);
    call.waited = true;
    return pending.then(
      (value) => next.call(this, call, value),
      (error: unknown) => this.#finish(call, { error }),
    );
  }

  #recordDecision(call: GateCall, decided: Decided): Reply {
    if (call.recorder !== noopRecorder) {
      // a replay words its record and its refusal as the run did (see RecordedDecision)
      const replayed = call.replayed;
      const judged = replayed?.judged ?? judgedOf(call.request);
      const recorded = recordDecided(call, decided, judged, replayed?.reason);
      if (recorded instanceof Promise) {
        call.waited = true;
        return recorded.then(() => this.#dispatch(call, decided));
      }
    }
    return this.#dispatch(call, decided);
  }

  /** Runs an allowed call (a replay hands back its recorded output); refuses any other. */
  #dispatch(call: GateCall, decided: Decided): Reply {
    if (call.observation !== undefined) observeDecided(call.observation, decided);
    if (!decided.allowed) {
      const reason = decisionSentence(decided.verdict, decided.answer);
      const error = call.replayed?.refusal ?? denied(call.agent, call.tool, reason);
      return this.#finish(call, { error });
    }
    const resolved = call.resolved!;
    // a composite tool (its effects are calls through this gate) runs again in a replay
    if (this.#recording && !isComposite(resolved)) return this.#replayOutput(call, this.#recording);
    let pending: unknown;
    try {
      call.timeoutMs =
        call.options.timeoutMs ??
        (resolved.where === 'in-process' ? resolved.tool.timeoutMs : undefined) ??
        this.timeoutMs;
      // nothing waited for since the call arrived: dispatch takes its arrival as the budget's start
      if (!call.waited && this.#clockIsPerformance) call.startedAt = call.started;
      // the call is its own dispatch options and, if the tool asks policy, its authority's
      pending = dispatch(resolved, call.parameters, call);
    } catch (error) {
      return this.#finish(call, { error });
    }
    if (pending instanceof Promise)
      return pending.then(
        (raw) => this.#cap(call, raw, this.limits),
        (error: unknown) => this.#finish(call, { error }),
      );
    return this.#cap(call, pending, this.limits);
  }

  async #replayOutput(call: GateCall, recording: Recording): Promise<ToolResult> {
    let raw: unknown;
    try {
      raw = await recording.output({ callId: call.callId, request: call.request });
    } catch (error) {
      return this.#finish(call, { error });
    }
    return this.#cap(call, raw, this.#replayLimits);
  }

  #cap(call: GateCall, raw: unknown, limits: Limits): Reply {
    let outcome: Outcome;
    try {
      outcome = capOutputOf(raw, call.tool, limits);
    } catch (error) {
      outcome = { error };
    }
    return this.#finish(call, outcome);
  }

  /**
   * The pre-flight of a call: grant, resolution, validation and policy's verdict, without running
   * it or asking an approver. Any failure is `refused` with its code. It records nothing, except an
   * `ask` put to an approver that answers later, when `pending` names it (`policy.asked`); a
   * recorder failing that rejects, as a call's would.
   * @internal
   */
  async check(grant: Grant, name: unknown, parameters: unknown, pending?: PendingAsk): Promise<CallCheck> {
    const tool = typeof name === 'string' ? name : String(name);
    let verdict: PolicyVerdict;
    let request: PolicyRequest;
    try {
      const oversized = oversizedParameters(parameters, this.limits.parameterChars);
      if (oversized !== undefined)
        throw parametersTooLarge(tool, oversized.length, this.limits.parameterChars);
      const assessing = this.#assess(grant, name, parameters);
      ({ request } = assessing instanceof Promise ? await assessing : assessing);
      verdict = this.#recording ? this.#recording.decision({ request }).verdict : this.policy.decide(request);
    } catch (error) {
      return { status: 'refused', tool, error: errorDataOf(error, this.limits) };
    }
    if (verdict.decision === 'allow') return { status: 'allowed', tool, reason: verdict.reason };
    if (verdict.decision === 'deny') {
      const error = denied(grant.agent, tool, verdict.reason);
      return { status: 'refused', tool, error: errorDataOf(error, this.limits) };
    }
    if (pending !== undefined) {
      const { agent } = grant;
      const recorded = recordAsked({ recorder: this.recorder, agent, tool, parameters, verdict, pending });
      if (recorded instanceof Promise) await recorded;
    }
    return { status: 'ask', tool, reason: verdict.reason, request };
  }

  /** Grant, resolve, validate and subject: synchronous for an in-process tool with a plain subject. */
  #assess(grant: Grant, name: unknown, parameters: unknown): Assessed | Promise<Assessed> {
    const pending = admit(this.registry, grant, name, parameters);
    if (pending instanceof Promise) return pending.then((admitted) => assessed(grant, admitted));
    return assessed(grant, pending);
  }

  #finish(call: GateCall, outcome: Outcome): Reply {
    const durationMs = this.#recording?.duration(call.callId) ?? this.#clock() - call.started;
    const { callId, tool } = call;
    let ending: Ending;
    if (!('output' in outcome))
      ending = { callId, tool, isError: true, error: errorDataOf(outcome.error, this.limits), durationMs };
    else if (outcome.content === undefined)
      ending = { callId, tool, isError: false, output: outcome.output, durationMs };
    else
      ending = { callId, tool, isError: false, output: outcome.output, content: outcome.content, durationMs };
    return observeRecorded(call.observation, ending, recordReturned(call, ending));
  }
}

type Outcome = CappedOutput | { error: unknown };

/** What a station of {@link ToolGate.run} hands on: the call's result, or its promise once a station waits. */
type Reply = ToolResult | Promise<ToolResult>;

function denied(agent: string, tool: string, reason: string): ToolgateError {
  return new ToolgateError(
    'PERMISSION_DENIED',
    `permission denied: agent "${agent}" may not call "${tool}" here (${reason})`,
  );
}

/** True for an in-process tool that only makes calls through the gate (`composite`). */
function isComposite(resolved: ResolvedTool): boolean {
  return resolved.where === 'in-process' && resolved.tool.composite === true;
}
