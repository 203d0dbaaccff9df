import { AgentHandle } from './agent-handle.js';
import { answerAsk, callAuthority } from './call-authority.js';
import type { CallCheck } from './call-check.js';
import { checkTimeout, runCall } from './call-run.js';
import { type ContentPart, isToolOutput } from './content.js';
import { capToolOutput, defaultMaxContentBytes } from './content-caps.js';
import type { CallOptions, ExternalDecision } from './context.js';
import { messageOf, ToolgateError } from './errors.js';
import type { ApprovalRequest, Approver, ToolGateOptions } from './gate-options.js';
import { capJsonText, type JsonObject, type JsonValue, toCappedJson, toJsonValue } from './json.js';
import { type Manifest, parseManifest } from './manifest.js';
import { defaultMaxParameterChars, omittedParameters, parametersTooLarge } from './parameter-bound.js';
import {
  type Policy,
  type PolicyRequest,
  type PolicySubject,
  type PolicyVerdict,
  policies,
} from './policy.js';
import { noopRecorder, type Recorder, type ToolErrorData } from './recorder.js';
import { outputOf, type ResolvedTool, type ToolRegistry, validate } from './registry.js';
import { subjectOf } from './subject.js';
import type { ToolResult } from './tool-result.js';

/**
 * The gate between agents and tools. It binds the registry, policy, approver and recorder once;
 * {@link ToolGate.forAgent} hands each agent a handle bound to its manifest.
 *
 * @example
 * const gate = new ToolGate(registry, { policy: policies.workspace(), recorder });
 * const teller = gate.forAgent({ name: 'fortune-teller', tools: ['oracle'] });
 * const result = await teller.callTool('oracle', { seed: 'moss' });
 */
export class ToolGate {
  readonly registry: ToolRegistry;
  readonly policy: Policy;
  readonly recorder: Recorder;
  readonly maxOutputChars: number;
  readonly maxErrorChars: number;
  /** The default time budget of one call, in ms (`Infinity` for none). */
  readonly timeoutMs: number;
  readonly maxContentBytes: number;
  /** The bound on one call's parameters, in characters of their JSON text (escaping counted). */
  readonly maxParameterChars: number;
  readonly #approver: Approver | undefined;
  readonly #callIds: () => string;
  readonly #clock: () => number;
  readonly #durationOf: ((callId: string) => number | undefined) | undefined;

  constructor(registry: ToolRegistry, options: ToolGateOptions = {}) {
    this.registry = registry;
    this.policy = options.policy ?? policies.allowAll();
    this.recorder = options.recorder ?? noopRecorder;
    this.maxOutputChars = options.maxOutputChars ?? 100_000;
    this.maxErrorChars = options.maxErrorChars ?? 10_000;
    this.maxContentBytes = options.maxContentBytes ?? defaultMaxContentBytes;
    this.maxParameterChars = checkBound(options.maxParameterChars ?? defaultMaxParameterChars);
    this.#approver = options.approver;
    this.#callIds = options.callIds ?? (() => crypto.randomUUID());
    this.timeoutMs =
      options.timeoutMs === undefined ? 600_000 : checkTimeout(options.timeoutMs, 'the gate option');
    this.#clock = options.clock ?? (() => performance.now());
    this.#durationOf = options.durationOf;
  }

  /** A handle bound to one agent's manifest (validated here). */
  forAgent(manifest: Manifest | unknown): AgentHandle {
    return new AgentHandle(this, parseManifest(manifest));
  }

  /**
   * Runs one call through the whole pipeline, recording to `recorder`. Nothing the model asks for
   * makes it throw; only a failing recorder does (a run is never silently unrecorded).
   * @internal
   */
  async run(
    manifest: Manifest,
    name: unknown,
    parameters: unknown,
    recorder: Recorder,
    options: CallOptions = {},
  ): Promise<ToolResult> {
    const started = this.#clock();
    const callId = this.#callIds();
    const tool = typeof name === 'string' ? name : String(name);
    const agent = manifest.name;
    const recording = recorder !== noopRecorder;
    const measured = this.#measured(parameters);
    if (measured.oversized) {
      if (recording)
        await recorder.toolCalled({
          callId,
          agent,
          tool,
          parameters: await omittedParameters(measured.text),
        });
      return this.#finish(recorder, callId, agent, tool, started, {
        error: parametersTooLarge(tool, measured.text.length, this.maxParameterChars),
      });
    }
    if (recording) await recorder.toolCalled({ callId, agent, tool, parameters: measured.value });

    let checked: Checked;
    try {
      const pending = this.#check(manifest, name, tool, parameters);
      const assessed = pending instanceof Promise ? await pending : pending;
      checked =
        assessed.verdict.decision === 'ask'
          ? await this.#asked(assessed, callId, options.decision)
          : { ...assessed, allowed: assessed.verdict.decision === 'allow', reason: assessed.verdict.reason };
    } catch (error) {
      return this.#finish(recorder, callId, agent, tool, started, { error });
    }
    const { resolved, valid, verdict, allowed } = checked;
    if (recording) {
      await recorder.policyDecided({
        callId,
        agent,
        tool,
        verdict: verdict.decision,
        decision: allowed ? 'allow' : 'deny',
        reason: checked.reason,
        ...(verdict.rule === undefined ? {} : { rule: verdict.rule }),
      });
    }
    if (!allowed) {
      return this.#finish(recorder, callId, agent, tool, started, {
        error: denied(agent, tool, checked.reason),
      });
    }
    let outcome: Outcome;
    try {
      // fields named, not spread: spreading an object that holds an AbortSignal costs microseconds
      const pending = runCall(resolved, valid, {
        signal: options.signal,
        onProgress: options.onProgress,
        callId,
        agent,
        authority: callAuthority({
          policy: this.policy,
          approver: this.#approver,
          recorder,
          callId,
          agent,
          tool,
          parameters: valid,
        }),
        timeoutMs: (resolved.where === 'in-process' ? resolved.tool.timeoutMs : undefined) ?? this.timeoutMs,
      });
      const raw = pending instanceof Promise ? await pending : pending;
      outcome = this.#capped(raw, tool);
    } catch (error) {
      outcome = { error };
    }
    return this.#finish(recorder, callId, agent, tool, started, outcome);
  }

  /** The output checked as JSON and capped; content parts, when the tool returned `toolResult(…)`, checked and capped one by one. */
  #capped(raw: unknown, tool: string): Outcome {
    if (!isToolOutput(raw)) return { output: toCappedJson(raw, this.maxOutputChars, () => outputOf(tool)) };
    const caps = { maxOutputChars: this.maxOutputChars, maxContentBytes: this.maxContentBytes };
    const { output, content } = capToolOutput(raw, caps, outputOf(tool));
    return { output, content: [...content] };
  }

  /**
   * The pre-flight of a call: grant, resolution, validation and policy's verdict, without running
   * it, asking the approver or recording anything. Any failure is `refused` with its code.
   * @internal
   */
  async check(manifest: Manifest, name: unknown, parameters: unknown): Promise<CallCheck> {
    const tool = typeof name === 'string' ? name : String(name);
    try {
      const measured = this.#measured(parameters);
      if (measured.oversized) throw parametersTooLarge(tool, measured.text.length, this.maxParameterChars);
      const pending = this.#check(manifest, name, tool, parameters);
      const { verdict, request } = pending instanceof Promise ? await pending : pending;
      if (verdict.decision === 'allow') return { status: 'allowed', tool, reason: verdict.reason };
      if (verdict.decision === 'ask') return { status: 'ask', tool, reason: verdict.reason, request };
      return {
        status: 'refused',
        tool,
        error: errorData(denied(manifest.name, tool, verdict.reason), this.maxErrorChars),
      };
    } catch (error) {
      return { status: 'refused', tool, error: errorData(error, this.maxErrorChars) };
    }
  }

  /** The parameters as recordable JSON, and whether their JSON text is past `maxParameterChars`. */
  #measured(parameters: unknown): { value: JsonValue; text: string; oversized: boolean } {
    const value = recordable(parameters);
    const text = JSON.stringify(value);
    return { value, text, oversized: text.length > this.maxParameterChars };
  }

  /** Grant, resolution, validation and policy: synchronous for an in-process tool with a plain verdict. */
  #check(manifest: Manifest, name: unknown, tool: string, parameters: unknown): Assessed | Promise<Assessed> {
    this.registry.authorize(manifest, name);
    const local = this.registry.resolveInProcess(tool);
    if (!local)
      return this.registry.resolve(tool).then((resolved) => this.#decide(manifest, resolved, parameters));
    return this.#decide(manifest, local, parameters);
  }

  #decide(manifest: Manifest, resolved: ResolvedTool, parameters: unknown): Assessed | Promise<Assessed> {
    const valid = validate(resolved, parameters);
    const subject = subjectOf(resolved, valid);
    if (subject instanceof Promise)
      return subject.then((found) => this.#verdict(manifest, resolved, valid, found));
    return this.#verdict(manifest, resolved, valid, subject);
  }

  #verdict(
    manifest: Manifest,
    resolved: ResolvedTool,
    valid: JsonObject,
    subject: PolicySubject | undefined,
  ): Assessed {
    const request: PolicyRequest = {
      agent: manifest.name,
      tool: resolved.description.name,
      parameters: valid,
    };
    if (subject !== undefined) request.subject = subject;
    return { resolved, valid, request, verdict: this.policy.decide(request) };
  }

  /** An `ask` answered: by the caller's external decision when given, else by the approver. */
  async #asked(assessed: Assessed, callId: string, decision: ExternalDecision | undefined): Promise<Checked> {
    const { verdict } = assessed;
    if (decision !== undefined) {
      const approved = decision.approved === true;
      const by = typeof decision.by === 'string' && decision.by !== '' ? decision.by : 'an unnamed caller';
      const because = typeof decision.reason === 'string' && decision.reason ? `: ${decision.reason}` : '';
      return {
        ...assessed,
        allowed: approved,
        reason: `${verdict.reason}; ${approved ? 'approved' : 'not approved'} by ${by}${because}`,
      };
    }
    const { allowed, reason } = await this.#ask(verdict, {
      ...assessed.request,
      callId,
      reason: verdict.reason,
    });
    return { ...assessed, allowed, reason };
  }

  #ask(verdict: PolicyVerdict, request: ApprovalRequest): Promise<{ allowed: boolean; reason: string }> {
    return answerAsk(this.#approver, verdict.reason, request);
  }

  #finish(
    recorder: Recorder,
    callId: string,
    agent: string,
    tool: string,
    started: number,
    outcome: Outcome,
  ): ToolResult | Promise<ToolResult> {
    const durationMs = this.#durationOf?.(callId) ?? this.#clock() - started;
    const result: ToolResult =
      'output' in outcome
        ? {
            callId,
            tool,
            isError: false,
            output: outcome.output,
            ...(outcome.content === undefined ? {} : { content: outcome.content }),
            durationMs,
          }
        : { callId, tool, isError: true, error: errorData(outcome.error, this.maxErrorChars), durationMs };
    if (recorder === noopRecorder) return result;
    const recorded = recorder.toolReturned({ ...result, agent });
    return recorded instanceof Promise ? recorded.then(() => result) : result;
  }
}

type Outcome = { output: JsonValue; content?: ContentPart[] } | { error: unknown };

/** A call checked up to policy's verdict (before any `ask` is answered). */
interface Assessed {
  resolved: ResolvedTool;
  valid: JsonObject;
  request: PolicyRequest;
  verdict: PolicyVerdict;
}

/** A call decided: whether it runs, and the reason recorded (policy's, plus the answer to an `ask`). */
interface Checked extends Assessed {
  allowed: boolean;
  reason: string;
}

function denied(agent: string, tool: string, reason: string): ToolgateError {
  return new ToolgateError(
    'PERMISSION_DENIED',
    `permission denied: agent "${agent}" may not call "${tool}" here (${reason})`,
  );
}

function checkBound(maxParameterChars: unknown): number {
  if (typeof maxParameterChars === 'number' && maxParameterChars > 0) return maxParameterChars;
  throw new ToolgateError(
    'INVALID_DEFINITION',
    `the gate option maxParameterChars must be a positive number of characters (Infinity for no bound), not ${String(maxParameterChars)}`,
  );
}

function recordable(parameters: unknown): JsonValue {
  try {
    return toJsonValue(parameters ?? {});
  } catch (error) {
    return { unrecordable: messageOf(error) };
  }
}

/** The error a model reads, its message capped (a 2 MB command must not come back whole). */
function errorData(error: unknown, maxChars: number): ToolErrorData {
  const message = capJsonText(ToolgateError.is(error) ? error.message : messageOf(error), maxChars).text;
  return { code: ToolgateError.is(error) ? error.code : 'TOOL_FAILED', message };
}
