import type {
  JsonObject,
  JsonValue,
  Recorder,
  ToolDescription,
  ToolGateOptions,
  ToolOutput,
  ToolResolver,
} from '@toolgate/core';
import { ToolgateError } from '@toolgate/core';
import type {
  Recording as GateRecording,
  PolicyDecidedRecord,
  RecordedDecision,
  RecordingQuery,
  ToolCalledRecord,
  ToolReturnedRecord,
} from '@toolgate/core/internal';
import type { LedgerEvent } from '../chain/event.js';
import { decisionDifference, returnDifference } from './compare.js';
import { ReplayProgress } from './progress.js';
import { recordedDecision, recordedJudged } from './recorded-decision.js';
import { recordedDuration, recordedError, recordedResult } from './recorded-result.js';
import {
  askKey,
  callKey,
  canonicalOf,
  differenceOf,
  type RecordedCall,
  type Recording,
  readRecording,
} from './recording.js';
import type { Divergence, ObservedRecorder, ReplayMode, ReplayOptions } from './replay-options.js';

interface Pending {
  readonly callId: string;
  readonly key: string;
  readonly tool: string;
  readonly recorded: RecordedCall | undefined;
  readonly divergence: Divergence | undefined;
}

/**
 * Serves a recorded run instead of running anything. It is the replay gate's `Recording`
 * (its one replay seam: recorded verdicts and answers, outputs and durations), the
 * {@link ToolResolver} that describes the recorded tools, and an observer of the replay's recorder
 * (which is how it knows each call under way). Wire it with {@link ReplaySession.gateOptions} and
 * {@link replayRegistry}.
 *
 * @example
 * const replay = new ReplaySession(await readAll(recorded.read()), { mode: 'strict' });
 * const gate = new ToolGate(replayRegistry(replay), replay.gateOptions({ recorder, callIds }));
 */
export class ReplaySession implements ToolResolver, GateRecording {
  readonly mode: ReplayMode;
  /** Every difference seen so far (in lenient mode the run goes on past them). */
  readonly divergences: Divergence[] = [];
  readonly #recording: Recording;
  readonly #tools: Map<string, ToolDescription>;
  readonly #progress: ReplayProgress;
  readonly #pending: Pending[] = [];

  constructor(events: Iterable<LedgerEvent>, options: ReplayOptions = {}) {
    const mode: unknown = options.mode ?? 'strict';
    if (mode !== 'strict' && mode !== 'lenient') {
      throw new ToolgateError(
        'INVALID_DEFINITION',
        `replay mode ${JSON.stringify(mode)} is not known; use "strict" (the default) or "lenient"`,
      );
    }
    this.mode = mode;
    this.#recording = readRecording(events, options.runId);
    this.#progress = new ReplayProgress(this.#recording.calls);
    this.#tools = new Map(this.#recording.descriptions);
    for (const tool of options.tools ?? []) this.#tools.set(tool.name, tool);
  }

  /** The options of the replay's `ToolGate`: this session as its recording, and the recorder, observed. */
  gateOptions(options: ToolGateOptions & { recorder: Recorder }): ToolGateOptions {
    return { ...options, recording: this, recorder: this.observe(options.recorder) };
  }

  /**
   * The verdict and answer recorded for a call (for a pre-flight check, of the next recorded call
   * of that key); a call with no recorded decision is allowed, saying so.
   */
  decision(query: RecordingQuery): RecordedDecision {
    const { request } = query;
    const pending = query.callId === undefined ? undefined : this.#pendingOf(query.callId);
    const recorded = pending ? pending.recorded : this.#find(request.tool, request.agent, request.parameters);
    const payload = recorded?.decided?.payload as Record<string, unknown> | undefined;
    if (!payload)
      return { verdict: { decision: 'allow', reason: 'replayed call with no recorded decision' } };
    const { verdict, answer } = recordedDecision(payload);
    const decided: RecordedDecision = answer === undefined ? { verdict } : { verdict, answer };
    // the run's own words, handed on (never read): its sentence, and the refusal the caller got
    if (typeof payload.reason === 'string') decided.reason = payload.reason;
    const refused = verdict.decision === 'deny' || (verdict.decision === 'ask' && answer?.approved !== true);
    const refusal = refused && recorded ? recordedError(recorded) : undefined;
    if (refusal) decided.refusal = refusal;
    decided.judged = recordedJudged(payload);
    return decided;
  }

  /** What the call returned in the recording; its failure thrown as it was. */
  output(query: Required<RecordingQuery>): Promise<JsonValue | ToolOutput> {
    return this.call(query.request.tool, query.request.parameters);
  }

  /** The recorded `durationMs` of the call under `callId`. */
  duration(callId: string): number | undefined {
    return this.recordedDuration(callId);
  }

  /**
   * Wraps the replay's recorder so the session sees each call (and, in strict mode, checks it); a
   * recorder that also records tool changes (a `LedgerRecorder`) keeps doing so.
   */
  observe(recorder: ObservedRecorder): ObservedRecorder {
    return {
      toolCalled: (record) => {
        this.#called(record);
        return recorder.toolCalled(record);
      },
      policyDecided: (record) => {
        this.#decided(record);
        return recorder.policyDecided(record);
      },
      toolReturned: (record) => {
        this.#returned(record);
        return recorder.toolReturned(record);
      },
      toolChanged: (record) => recorder.toolChanged?.(record),
      // a replayed run derives its agents as the recorded one did, and records them the same way
      agentDerived: (record) => recorder.agentDerived?.(record),
      // an ask put to a later approver is written again where the run wrote it (a ledger from before
      // `policy.asked` has none, and its replay writes none: the same bytes either way)
      policyAsked: (record) =>
        this.#recording.asked.has(askKey(record.agent, record.askId))
          ? recorder.policyAsked?.(record)
          : undefined,
    };
  }

  /**
   * The `durationMs` recorded for the call the replay's gate runs under `callId`, so a replayed
   * result (and its record) says what the recorded one said; undefined when none was recorded.
   */
  recordedDuration(callId: string): number | undefined {
    return recordedDuration(this.#pendingOf(callId)?.recorded);
  }

  /** Throws REPLAY_DIVERGED when the replay diverged, or left recorded calls unmade. */
  assertComplete(): void {
    const first = this.divergences[0];
    if (first) throw new ToolgateError('REPLAY_DIVERGED', first.message);
    const made = this.#progress.made;
    const left = this.#recording.calls.length - made;
    if (left > 0) {
      const next = this.#progress.firstUnmade();
      throw new ToolgateError(
        'REPLAY_DIVERGED',
        `the replay made ${made} of the ${this.#recording.calls.length} recorded calls; ` +
          `${left} were never made${next ? `, the first at seq ${next.called.seq}` : ''}`,
      );
    }
  }

  /**
   * True for a described tool, and for any tool while a replayed call of it is under way. Without
   * any descriptions, true for every tool the recording called.
   */
  async has(name: string): Promise<boolean> {
    if (this.#tools.has(name) || this.#pending.some((call) => call.tool === name)) return true;
    return this.#tools.size === 0 && this.#recording.toolNames.has(name);
  }

  async describe(name: string): Promise<ToolDescription | undefined> {
    const pending = this.#pending.find((call) => call.tool === name);
    if (pending?.divergence) throw new ToolgateError('REPLAY_DIVERGED', pending.divergence.message);
    const recorded = pending?.recorded;
    if (recorded && !recorded.decided) {
      // The recorded call failed before policy (unknown tool, bad parameters …): fail the same way.
      const error = recordedError(recorded);
      if (error) throw error;
    }
    if (!(await this.has(name))) return undefined;
    return (
      this.#tools.get(name) ?? {
        name,
        description: `replayed tool "${name}"`,
        inputSchema: { type: 'object' },
      }
    );
  }

  async call(name: string, parameters: JsonObject): Promise<JsonValue | ToolOutput> {
    const key = canonicalOf(parameters);
    const pending = this.#pending.find((call) => call.tool === name && call.key.endsWith(`\u0000${key}`));
    if (pending?.divergence) throw new ToolgateError('REPLAY_DIVERGED', pending.divergence.message);
    if (!pending?.recorded) {
      throw new ToolgateError(
        'REPLAY_DIVERGED',
        `the replay called "${name}" with ${key}, which the recording never did`,
      );
    }
    return recordedResult(pending.recorded);
  }

  /**
   * The recording of a call under way; or, for a pre-flight check (`handle.check`, which records
   * nothing), of the call the replay will make next with this key.
   */
  #find(tool: string, agent: string, parameters: unknown): RecordedCall | undefined {
    const key = callKey(agent, tool, parameters);
    const pending = this.#pending.find((call) => call.key === key);
    if (pending) return pending.recorded;
    // A pre-flight check (`AgentHandle.check`) asks before its call begins: it gets the verdict of
    // the next recorded call of that key not made yet, so a replayed `ask` is asked again.
    return this.#progress.upcoming(key);
  }

  #diverge(seq: number, message: string): Divergence {
    const divergence = { seq, message: `replay diverged from the recording at seq ${seq}: ${message}` };
    this.divergences.push(divergence);
    if (this.mode === 'strict') throw new ToolgateError('REPLAY_DIVERGED', divergence.message);
    return divergence;
  }

  #called({ callId, agent, tool, parameters }: ToolCalledRecord): void {
    const key = callKey(agent, tool, parameters);
    const calls = this.#recording.calls;
    let recorded: RecordedCall | undefined;
    let divergence: Divergence | undefined;
    if (this.mode === 'strict') {
      const expected = this.#progress.inOrder;
      if (!expected) {
        const end = calls.at(-1)?.returned?.seq ?? calls.at(-1)?.called.seq ?? -1;
        this.#diverge(end + 1, `agent "${agent}" called "${tool}", but the recording has no more calls`);
      } else if (expected.key !== key) {
        this.#diverge(expected.called.seq, differenceOf(expected, agent, tool, parameters));
      }
      recorded = expected;
    } else {
      recorded = this.#progress.upcoming(key);
      if (!recorded) {
        const end = calls.at(-1)?.called.seq ?? -1;
        divergence = this.#diverge(
          end + 1,
          `agent "${agent}" called "${tool}" with ${canonicalOf(parameters ?? {})} ` +
            `(occurrence ${this.#progress.occurrences(key) + 1}), which the recording has no result for`,
        );
      }
    }
    if (recorded) this.#progress.take(recorded);
    this.#pending.push({ callId, key, tool, recorded, divergence });
  }

  #decided(record: PolicyDecidedRecord): void {
    const recorded = this.#pendingOf(record.callId)?.recorded;
    if (this.mode !== 'strict' || !recorded) return;
    const difference = decisionDifference(recorded, record);
    if (difference) this.#diverge(difference.seq, difference.message);
  }

  #returned(record: ToolReturnedRecord): void {
    const index = this.#pending.findIndex((call) => call.callId === record.callId);
    const recorded = this.#pending[index]?.recorded;
    if (index >= 0) this.#pending.splice(index, 1);
    if (this.mode !== 'strict' || !recorded) return;
    const difference = returnDifference(recorded, record);
    if (difference) this.#diverge(difference.seq, difference.message);
  }

  #pendingOf(callId: string): Pending | undefined {
    return this.#pending.find((call) => call.callId === callId);
  }
}
