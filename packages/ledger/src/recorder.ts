import {
  type JsonObject,
  type JsonValue,
  type PolicyDocument,
  type PolicySubject,
  type Recorder,
  type ToolDescription,
  ToolgateError,
} from '@toolgate/core';
import type {
  AgentDerivedRecord,
  PolicyAskedRecord,
  PolicyDecidedRecord,
  ToolCalledRecord,
  ToolChangedRecord,
  ToolReturnedRecord,
} from '@toolgate/core/internal';
import type { EventDraft, LedgerEvent } from './chain/event.js';
import { parametersDigest } from './decisions/answer-binding.js';
import {
  type PolicyRecordOptions,
  policyRecordedKind,
  policyRecordPayload,
} from './decisions/policy-record.js';
import type { AppendOptions, LedgerStore } from './store.js';
import { replaceLoneSurrogates, surrogatesReplacedField } from './well-formed.js';

/** What a {@link LedgerRecorder} is built with. */
export interface LedgerRecorderOptions {
  /** The run every event belongs to. */
  runId: string;
  /** The turn to start at. Default 0; move it with {@link LedgerRecorder.setTurn}. */
  turn?: number;
  /**
   * What a call's records wait for, in a store that syncs (a `FileStore` with `batch` or `always`).
   * Every record is written before the gate takes the next step, in order, whichever is chosen: in
   * the file (the OS holds it), so a crash of the process never loses it.
   * - `result` (the default): the call's records (`tool.called`, `policy.decided`, `tool.returned`)
   *   made durable as a unit, with one fsync, before the result is returned. One fsync a call; the
   *   effect runs after its records are written, but a crash of the machine (a power loss) while the
   *   tool runs can lose the records of a call whose effect happened.
   * - `dispatch`: `tool.called` and `policy.decided` made durable together, with one fsync, before
   *   the tool runs; `tool.returned` with another before the result is returned. Two fsyncs a call;
   *   no effect runs before the record that allowed it is on disk, even across a power loss. For
   *   effects that must not happen unrecorded whatever fails (the gateway's `durability: always`).
   */
  durableBefore?: 'dispatch' | 'result';
}

/**
 * The gate's recorder, writing to a ledger: every call through an agent handle becomes
 * `tool.called`, `policy.decided` (when policy was consulted) and `tool.returned`, correlated by
 * the call id, with the agent as actor. Event ids derive from the run and call id
 * (`<runId>:<callId>:<kind>`), so with injected call ids and clock a run writes the same bytes
 * every time.
 *
 * Nothing a call carries makes recording it throw: a lone UTF-16 surrogate (which has no canonical
 * JSON form) in the parameters, the output or an error message is recorded as U+FFFD, and the
 * payload gets a `surrogatesReplaced` list saying where and what stood there (see
 * {@link SurrogateReplacement}); a replay puts them back.
 *
 * @example
 * const recorder = new LedgerRecorder(store, { runId: 'run-1' });
 * const gate = new ToolGate(registry, { recorder, callIds: counter() });
 * recorder.setTurn(1);
 * await gate.forAgent(manifest).callTool('oracle', { seed: 'moss' });
 */
export class LedgerRecorder implements Recorder {
  readonly store: LedgerStore;
  readonly runId: string;
  /** See {@link LedgerRecorderOptions.durableBefore}. */
  readonly durableBefore: 'dispatch' | 'result';
  #turn: number;
  /** Decisions recorded so far of each call that has not returned (a call may be decided mid-run too). */
  readonly #decisions = new Map<string, number>();
  /** The recorded parameters of each call that has not returned, which its answers are bound to. */
  readonly #parameters = new Map<string, JsonValue>();

  constructor(store: LedgerStore, options: LedgerRecorderOptions) {
    this.store = store;
    this.runId = options.runId;
    this.#turn = options.turn ?? 0;
    const durableBefore = options.durableBefore ?? 'result';
    if (durableBefore !== 'dispatch' && durableBefore !== 'result') {
      throw new ToolgateError(
        'INVALID_DEFINITION',
        `durableBefore ${JSON.stringify(durableBefore)} is not one of "dispatch", "result"`,
      );
    }
    this.durableBefore = durableBefore;
  }

  /** The turn events are stamped with. */
  get turn(): number {
    return this.#turn;
  }

  /** Moves to another turn of the run (a model turn, a round of a scenario). */
  setTurn(turn: number): void {
    this.#turn = turn;
  }

  /**
   * Appends an event of this run and turn, e.g. `run.started` or `oracle.spoke`. Lone UTF-16
   * surrogates in an object payload are replaced as in tool events (see {@link LedgerRecorder}).
   */
  record(kind: string, actor: string, payload: JsonValue = {}, id?: string): Promise<LedgerEvent> {
    return this.#append({
      ...(id === undefined ? {} : { id }),
      runId: this.runId,
      turn: this.#turn,
      kind,
      actor,
      payload,
    });
  }

  /**
   * Records the policy the run decides by as `policy.recorded` (its digest and, unless `digestOnly`,
   * the document), so `verify --decisions` can re-judge every decision. Record it at run start, and
   * again whenever the policy changes (a reload). For a layered policy, pass its `layers`.
   */
  recordPolicy(document: PolicyDocument, options: PolicyRecordOptions = {}): Promise<LedgerEvent> {
    return this.record(policyRecordedKind, 'system', policyRecordPayload(document, options));
  }

  /**
   * Records the descriptions of the tools of the run as `tools.described`, so a replay can describe
   * them to a model with every tool switched off.
   */
  async describeTools(actor: string, tools: readonly ToolDescription[]): Promise<void> {
    const described = tools.map(({ name, description, inputSchema, parallelSafe }) => ({
      name,
      description,
      inputSchema: inputSchema as JsonValue,
      ...(parallelSafe === undefined ? {} : { parallelSafe }),
    }));
    await this.record('tools.described', actor, { tools: described });
  }

  async toolCalled(record: ToolCalledRecord): Promise<void> {
    const { callId, tool, parameters } = record;
    this.#parameters.set(callId, parameters as JsonValue);
    // Written now; made durable with policy.decided (`dispatch`) or tool.returned (`result`), by one fsync.
    await this.#call('tool.called', record, { callId, tool, parameters }, { durable: false });
  }

  async policyDecided(record: PolicyDecidedRecord): Promise<void> {
    const { callId, tool, decision, verdict, answer, reason, subject, client, agentPath } = record;
    const payload: JsonObject = { callId, tool, decision, verdict: { ...verdict } };
    if (answer !== undefined) {
      // the answer as data binds to the exact parameters it answered for (verify --decisions checks it)
      const called = this.#parameters.get(callId);
      const bound: JsonObject = { ...answer };
      if (called !== undefined)
        bound.parametersDigest = parametersDigest(replaceLoneSurrogates(called).value);
      payload.answer = bound;
    }
    payload.reason = reason;
    if (subject !== undefined) payload.subject = subject === null ? null : subjectData(subject);
    if (client !== undefined) payload.client = client;
    if (agentPath !== undefined) payload.agentPath = agentPath;
    // the call's own decision keeps its id; one made while it ran (`context.authorize`) is numbered
    const count = (this.#decisions.get(callId) ?? 0) + 1;
    this.#decisions.set(callId, count);
    await this.#call('policy.decided', record, payload, {
      durable: this.durableBefore === 'dispatch',
      ...(count === 1 ? {} : { idKind: `policy.decided.${count}` }),
    });
  }

  /** Resolves with where `tool.returned` landed (run id and seq), for a gate's observer. */
  async toolReturned(record: ToolReturnedRecord): Promise<{ runId: string; seq: number }> {
    const { callId, tool, durationMs } = record;
    this.#decisions.delete(callId);
    this.#parameters.delete(callId);
    const payload: JsonObject = record.isError
      ? { callId, tool, isError: true, error: { code: record.error.code, message: record.error.message } }
      : { callId, tool, isError: false, output: record.output };
    // Content parts are plain JSON (base64 for bytes): recorded as the agent got them, for replay.
    if (!record.isError && record.content !== undefined)
      payload.content = record.content as unknown as JsonValue;
    if (typeof durationMs === 'number' && Number.isFinite(durationMs)) payload.durationMs = durationMs;
    const event = await this.#call('tool.returned', record, payload);
    return { runId: event.runId, seq: event.seq };
  }

  /** Records a remote tool that changed, conflicted or was withheld as `tool.changed`, the server as actor. */
  async toolChanged(record: ToolChangedRecord): Promise<void> {
    const { kind, server, tool, remoteName, before, after, fingerprint, reason } = record;
    const payload = {
      change: kind,
      server,
      tool,
      remoteName,
      ...(before === undefined ? {} : { before }),
      after,
      ...(fingerprint === undefined ? {} : { fingerprint }),
      ...(reason === undefined ? {} : { reason }),
    } as unknown as JsonObject;
    await this.record('tool.changed', server, payload);
  }

  /**
   * Records a derived agent (`handle.narrow`) as `agent.derived`, the parent as actor: which agent
   * derived which, with which tools; for an agent acting for another (`handle.actingFor`: a handoff,
   * an agent called as a tool), also `via`: `{ kind, tool, callId? }`.
   */
  async agentDerived(record: AgentDerivedRecord): Promise<void> {
    const { agent, parent, tools, via } = record;
    const payload: JsonObject = { agent, parent, tools: [...tools] };
    if (via !== undefined)
      payload.via = {
        kind: via.kind,
        tool: via.tool,
        ...(via.callId === undefined ? {} : { callId: via.callId }),
      };
    await this.record('agent.derived', parent, payload);
  }

  /**
   * Records an `ask` put to an approver that answers later (a framework's approval UI) as
   * `policy.asked`, the agent as actor, when it is put; its answer comes with the call's
   * `policy.decided`. The id derives from the run and the ask's id (the framework's call id).
   */
  async policyAsked(record: PolicyAskedRecord): Promise<void> {
    const { askId, tool, parameters, verdict, askedOf } = record;
    const payload: JsonObject = { askId, tool, parameters, verdict: { ...verdict }, askedOf };
    await this.record(policyAskedKind, record.agent, payload, this.#id(askId, policyAskedKind));
  }

  #call(
    kind: string,
    record: { callId: string; agent: string },
    payload: JsonObject,
    { durable = true, idKind = kind }: { durable?: boolean; idKind?: string } = {},
  ): Promise<LedgerEvent> {
    const draft = {
      id: this.#id(record.callId, idKind),
      runId: this.runId,
      turn: this.#turn,
      kind,
      actor: record.agent,
      payload,
    };
    return this.#append(draft, durable ? undefined : notYetDurable);
  }

  /**
   * Appends the draft as it is: the store refuses a lone surrogate (INVALID_EVENT) before it stores
   * anything, and only then is an object payload walked for them and appended again with them
   * replaced. A payload without any (nearly every one) is walked once, by the store's serialiser.
   */
  #append(draft: EventDraft & { payload: JsonValue }, options?: AppendOptions): Promise<LedgerEvent> {
    return this.store.append(draft, options).catch((error: unknown) => {
      if (!(ToolgateError.is(error) && error.code === 'INVALID_EVENT' && isObject(draft.payload)))
        throw error;
      const payload = wellFormed(draft.payload);
      if (payload === draft.payload) throw error;
      return this.store.append({ ...draft, payload }, options);
    });
  }

  #id(callId: string, kind: string): string {
    return `${this.runId}:${callId}:${kind}`;
  }
}

const notYetDurable: AppendOptions = { durable: false };

/** The kind of the record of an `ask` put to an approver that answers later. */
export const policyAskedKind = 'policy.asked';

function isObject(value: JsonValue): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The payload with lone surrogates replaced and, when there were any, the note saying where. */
function wellFormed(payload: JsonObject): JsonObject {
  const { value, replaced } = replaceLoneSurrogates(payload);
  if (replaced.length === 0) return payload;
  return { ...(value as JsonObject), [surrogatesReplacedField]: replaced as unknown as JsonValue };
}

/** A subject as JSON data: each of its lists of resources (paths, commands, hosts, …), copied. */
function subjectData(subject: PolicySubject): JsonObject {
  const data: JsonObject = {};
  for (const [kind, list] of Object.entries(subject)) {
    if (Array.isArray(list))
      data[kind] = list.map((each: JsonValue) => (Array.isArray(each) ? [...each] : each)) as JsonValue[];
  }
  return data;
}
