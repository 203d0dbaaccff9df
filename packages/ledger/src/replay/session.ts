import {
  type Approver,
  type JsonObject,
  type JsonValue,
  type Policy,
  type PolicyDecidedRecord,
  type Recorder,
  type ToolCalledRecord,
  type ToolDescription,
  type ToolGateOptions,
  ToolgateError,
  type ToolgateErrorCode,
  type ToolOutput,
  type ToolResolver,
  type ToolReturnedRecord,
  toolResult,
} from '@toolgate/core';
import type { LedgerEvent } from '../event.js';
import { restoreLoneSurrogates, surrogatesReplacedField } from '../well-formed.js';
import { ReplayPolicy, replayApprover } from './policy.js';
import {
  callKey,
  canonicalOf,
  differenceOf,
  type RecordedCall,
  type Recording,
  readRecording,
  withoutNote,
} from './recording.js';

/**
 * `strict`: the replay must make exactly the recorded calls in the recorded order; the first call,
 * decision or result that differs throws REPLAY_DIVERGED (the call fails loudly, naming the seq and
 * the difference). `lenient`: calls are matched by agent, tool, canonical parameters and occurrence
 * in any order; a call with no recording returns a REPLAY_DIVERGED error result the model can read.
 */
export type ReplayMode = 'strict' | 'lenient';

/** What a {@link ReplaySession} is built with. */
export interface ReplayOptions {
  /** Default `strict`. */
  mode?: ReplayMode;
  /** Replay only this run of the ledger. Default: every event given. */
  runId?: string;
  /**
   * The descriptions of the replayed tools, for prompts (`toolSchemas`, `availableToolsBlock`).
   * Default: the recording's `tools.described` events; a tool in neither is described minimally.
   */
  tools?: readonly ToolDescription[];
}

/** A difference between the replay and the recording. */
export interface Divergence {
  /** The seq of the recorded event that differs (or where the recording ends). */
  readonly seq: number;
  readonly message: string;
}

interface Pending {
  readonly callId: string;
  readonly key: string;
  readonly tool: string;
  readonly recorded: RecordedCall | undefined;
  readonly divergence: Divergence | undefined;
}

/**
 * Serves the tool results of a recorded run instead of running anything. It is the replay's
 * {@link ToolResolver}, its policy and approver (recorded decisions), and an observer of the
 * replay's recorder (which is how it knows the agent of each call). Wire it with
 * {@link ReplaySession.gateOptions} and {@link replayRegistry}.
 *
 * @example
 * const replay = new ReplaySession(await readAll(recorded.read()), { mode: 'strict' });
 * const gate = new ToolGate(replayRegistry(replay), replay.gateOptions({ recorder, callIds }));
 */
export class ReplaySession implements ToolResolver {
  readonly mode: ReplayMode;
  /** Every difference seen so far (in lenient mode the run goes on past them). */
  readonly divergences: Divergence[] = [];
  /** Decides every call as it was decided in the recording. */
  readonly policy: Policy;
  /** Answers `ask` calls as they were answered; undefined when the recording had no approver. */
  readonly approver: Approver | undefined;
  readonly #recording: Recording;
  readonly #tools: Map<string, ToolDescription>;
  readonly #used = new Map<string, number>();
  readonly #pending: Pending[] = [];
  #next = 0;

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
    this.#tools = new Map(this.#recording.descriptions);
    for (const tool of options.tools ?? []) this.#tools.set(tool.name, tool);
    this.policy = new ReplayPolicy((request) => this.#find(request.tool, request.agent, request.parameters));
    this.approver = replayApprover(this.#recording.calls, (request) =>
      this.#find(request.tool, request.agent, request.parameters),
    );
  }

  /**
   * The options of the replay's {@link ToolGate}: the recorder (observed), the recorded policy and
   * approver, recorded durations, and no output or content cap (recorded outputs and parts are already
   * capped).
   */
  gateOptions(options: ToolGateOptions & { recorder: Recorder }): ToolGateOptions {
    return {
      policy: this.policy,
      ...(this.approver ? { approver: this.approver } : {}),
      maxOutputChars: Number.POSITIVE_INFINITY,
      maxContentBytes: Number.POSITIVE_INFINITY,
      ...options,
      durationOf: (callId) => this.recordedDuration(callId),
      recorder: this.observe(options.recorder),
    };
  }

  /** Wraps the replay's recorder so the session sees each call (and, in strict mode, checks it). */
  observe(recorder: Recorder): Recorder {
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
    };
  }

  /**
   * The `durationMs` recorded for the call the replay's gate runs under `callId`, so a replayed
   * result (and its record) says what the recorded one said; undefined when none was recorded.
   */
  recordedDuration(callId: string): number | undefined {
    const payload = this.#pendingOf(callId)?.recorded?.returned?.payload as
      | { durationMs?: unknown }
      | undefined;
    return typeof payload?.durationMs === 'number' ? payload.durationMs : undefined;
  }

  /** Throws REPLAY_DIVERGED when the replay diverged, or left recorded calls unmade. */
  assertComplete(): void {
    const first = this.divergences[0];
    if (first) throw new ToolgateError('REPLAY_DIVERGED', first.message);
    const made = this.mode === 'strict' ? this.#next : [...this.#used.values()].reduce((a, b) => a + b, 0);
    const left = this.#recording.calls.length - made;
    if (left > 0) {
      const next = this.mode === 'strict' ? this.#recording.calls[made] : this.#firstUnmade();
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
  #firstUnmade(): RecordedCall | undefined {
    const seen = new Map<string, number>();
    return this.#recording.calls.find((call) => {
      const occurrence = (seen.get(call.key) ?? 0) + 1;
      seen.set(call.key, occurrence);
      return occurrence > (this.#used.get(call.key) ?? 0);
    });
  }

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
    const index = this.#pending.findIndex((call) => call.tool === name && call.key.endsWith(`\u0000${key}`));
    const pending = this.#pending[index];
    if (pending?.divergence) throw new ToolgateError('REPLAY_DIVERGED', pending.divergence.message);
    const recorded = pending?.recorded;
    if (!recorded) {
      throw new ToolgateError(
        'REPLAY_DIVERGED',
        `the replay called "${name}" with ${key}, which the recording never did`,
      );
    }
    const returned = recorded.returned?.payload as
      | { isError?: boolean; output?: JsonValue; [surrogatesReplacedField]?: unknown }
      | undefined;
    if (!returned) {
      throw new ToolgateError(
        'REPLAY_DIVERGED',
        `the recording ends before the call at seq ${recorded.called.seq} returned; nothing to replay`,
      );
    }
    if (returned.isError) throw recordedError(recorded)!;
    // What the recorded run saw, lone surrogates and all: the recorder then notes them again.
    const restored = restoreLoneSurrogates(returned as JsonValue, returned[surrogatesReplacedField]) as {
      output?: JsonValue;
      content?: unknown;
    };
    // Recorded content parts come back as they were recorded: the same text, the same base64 bytes.
    if (Array.isArray(restored.content)) {
      return toolResult({ output: restored.output ?? null, content: restored.content });
    }
    return restored.output ?? null;
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
    if (this.mode === 'strict')
      return this.#recording.calls.slice(this.#next).find((call) => call.key === key);
    return this.#recording.calls.filter((call) => call.key === key)[this.#used.get(key) ?? 0];
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
      const expected = calls[this.#next];
      if (!expected) {
        const end = calls.at(-1)?.returned?.seq ?? calls.at(-1)?.called.seq ?? -1;
        this.#diverge(end + 1, `agent "${agent}" called "${tool}", but the recording has no more calls`);
      } else if (expected.key !== key) {
        this.#diverge(expected.called.seq, differenceOf(expected, agent, tool, parameters));
      }
      recorded = expected;
      this.#next++;
    } else {
      const occurrence = this.#used.get(key) ?? 0;
      recorded = calls.filter((call) => call.key === key)[occurrence];
      if (recorded) this.#used.set(key, occurrence + 1);
      else {
        const end = calls.at(-1)?.called.seq ?? -1;
        divergence = this.#diverge(
          end + 1,
          `agent "${agent}" called "${tool}" with ${canonicalOf(parameters ?? {})} ` +
            `(occurrence ${occurrence + 1}), which the recording has no result for`,
        );
      }
    }
    this.#pending.push({ callId, key, tool, recorded, divergence });
  }

  #decided(record: PolicyDecidedRecord): void {
    const recorded = this.#pendingOf(record.callId)?.recorded;
    if (this.mode !== 'strict' || !recorded) return;
    const { callId: _callId, agent: _agent, ...now } = record;
    const was = recorded.decided?.payload as { callId?: string } | undefined;
    if (!was)
      return void this.#diverge(
        recorded.called.seq,
        `policy decided ${canonicalOf(now)}, but the recording has no decision for this call`,
      );
    const { callId: _was, ...wasRest } = withoutNote(was);
    if (canonicalOf(wasRest) !== canonicalOf(now)) {
      this.#diverge(
        recorded.decided!.seq,
        `policy decided ${canonicalOf(now)} instead of ${canonicalOf(wasRest)}`,
      );
    }
  }

  #returned(record: ToolReturnedRecord): void {
    const index = this.#pending.findIndex((call) => call.callId === record.callId);
    const pending = this.#pending[index];
    if (index >= 0) this.#pending.splice(index, 1);
    const recorded = pending?.recorded;
    if (this.mode !== 'strict' || !recorded?.returned) return;
    const { callId: _callId, agent: _agent, ...returned } = record;
    const { callId: _was, ...was } = withoutNote(recorded.returned.payload as { callId?: string });
    const now: Record<string, unknown> = { ...returned };
    // a ledger written before durations were recorded has none to compare
    if (!('durationMs' in was)) delete now.durationMs;
    if (canonicalOf(was) !== canonicalOf(now)) {
      this.#diverge(
        recorded.returned.seq,
        `the call returned ${canonicalOf(now)} instead of ${canonicalOf(was)}`,
      );
    }
  }

  #pendingOf(callId: string): Pending | undefined {
    return this.#pending.find((call) => call.callId === callId);
  }
}

function recordedError(recorded: RecordedCall): ToolgateError | undefined {
  const payload = recorded.returned?.payload as
    | { isError?: boolean; error?: { code: string; message: string }; [surrogatesReplacedField]?: unknown }
    | undefined;
  const restored =
    payload &&
    (restoreLoneSurrogates(payload as JsonValue, payload[surrogatesReplacedField]) as typeof payload);
  if (!restored?.isError || !restored.error) return undefined;
  return new ToolgateError(restored.error.code as ToolgateErrorCode, restored.error.message);
}
