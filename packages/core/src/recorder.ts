import type { ContentPart } from './content.js';
import type { ToolgateErrorCode } from './errors.js';
import type { JsonValue } from './json.js';
import type { Answer } from './pipeline/decide.js';
import type { RecordReceipt } from './pipeline/observe.js';
import type { PolicySubject, PolicyVerdict } from './policy.js';
import type { JsonSchema } from './tool.js';

/** A call as the gate received it, before any check. */
export interface ToolCalledRecord {
  callId: string;
  agent: string;
  tool: string;
  parameters: JsonValue;
}

/**
 * The policy decision on a call, as data: policy's verdict, the answer to an `ask` (who answered,
 * whether they approved, by whom, why), and what happened. `reason` is the same decision in words,
 * derived from the data for people (the ledger's `show`, the viewer); no code reads it back.
 */
export interface PolicyDecidedRecord {
  callId: string;
  agent: string;
  tool: string;
  /** What happened: `allow` runs the call, `deny` refuses it. */
  decision: 'allow' | 'deny';
  /** What policy said: its decision, the rule (and layer) that decided, and why. */
  verdict: PolicyVerdict;
  /** Who answered policy's `ask`, and how; absent when policy said allow or deny. */
  answer?: Answer;
  /** The decision in words ({@link decisionSentence} of `verdict` and `answer`). */
  reason: string;
  /**
   * What the verdict was about: the call's canonical subject (paths, commands, hosts) as policy saw
   * it, or `null` when toolgate could not tell (rules on them then failed closed). With the call's
   * parameters (its `tool.called`) it lets a ledger be judged again (`verify --decisions`, backtest).
   */
  subject?: PolicySubject | null;
  /** The gateway client that made the call, when one did (a rule's `clients:` judged it). */
  client?: string;
  /** The agent's path when it was narrowed (`lead/critic`; a rule's `agents:` judged it). */
  agentPath?: string;
}

/**
 * An `ask` put to an approver that answers later (a framework's approval UI), recorded when it is
 * put: the call is recorded, with the answer as its `policy.decided`, once it is answered.
 */
export interface PolicyAskedRecord {
  /** The caller's id of the waiting call (the framework's tool call id): unique within a run. */
  askId: string;
  agent: string;
  tool: string;
  parameters: JsonValue;
  /** What policy said: `ask`, its rule (and layer), and why. */
  verdict: PolicyVerdict;
  /** Who was asked. */
  askedOf: string;
}

/** A failure, as data a model can read. */
export interface ToolErrorData {
  code: ToolgateErrorCode;
  message: string;
}

/** How a call ended, and how long it took (`durationMs`, by the gate's clock). */
export type ToolReturnedRecord =
  | {
      callId: string;
      agent: string;
      tool: string;
      isError: false;
      output: JsonValue;
      /** The content parts, as the agent got them (checked and capped). */
      content?: ContentPart[];
      durationMs: number;
    }
  | { callId: string; agent: string; tool: string; isError: true; error: ToolErrorData; durationMs: number };

/**
 * How an agent came to act for another in an agent framework's run (see
 * {@link AgentHandle.actingFor}): `handoff` when the parent handed the run over to it (`tool` is
 * the handoff's tool, such as `transfer_to_clerk`), `tool` when the parent called it as a tool
 * (`tool` is that tool). `callId` is the framework's id of that call (a handoff), or the gate's
 * (a tool call); absent when the framework does not tell it.
 */
export interface LineageVia {
  kind: 'handoff' | 'tool';
  tool: string;
  callId?: string;
}

/**
 * A handle derived from another with a narrower grant ({@link AgentHandle.narrow}): which agent
 * derived which, with which tools. Told once, when the derived agent makes its first call. With
 * `via`, an agent acting for its parent in one step of a framework's run (a handoff, or a call of
 * the agent as a tool; {@link AgentHandle.actingFor}): its own name and grant, and how it came to
 * act, told once for that step, before its first call in it.
 */
export interface AgentDerivedRecord {
  /** The derived agent's name. */
  agent: string;
  /** The name of the agent it was derived from (with `via`: the agent it acts for). */
  parent: string;
  /** The derived agent's grant: a subset of the parent's (with `via`: its own grant). */
  tools: string[];
  /** How an agent acting for its parent came to act; absent for a narrowed grant. */
  via?: LineageVia;
}

/**
 * The shape a ledger records a remote tool change in (the MCP client reports them, to a sink of its
 * own — not through the gate's {@link Recorder}). A remote tool that is not served as it was approved: `changed` when its description or schema
 * differs from the approved one, or another server now lists the approved name (calls are refused
 * until it is approved again); `conflicted` when a server lists a name another server serves or
 * owns (the newcomer is not served); `withheld` when a listed tool cannot be indexed safely (a
 * schema too deep, too large or cyclic, text that is not well-formed): it is not served;
 * `ajv-validated` when zod cannot read its input schema back (see `reason`): it is served, and its
 * calls are validated against that schema by ajv instead.
 */
export interface ToolChangedRecord {
  kind: 'changed' | 'conflicted' | 'withheld' | 'ajv-validated';
  /** The server that listed it. */
  server: string;
  /** The name agents call it by (with the prefix, if any). */
  tool: string;
  /** The name on the server. */
  remoteName: string;
  /** What was approved (for `conflicted`: what the other server serves); absent when nothing was. */
  before?: { description: string; inputSchema: JsonSchema };
  /** What the server lists now; for `withheld`, its description only (the schema is what is unsafe). */
  after: { description: string; inputSchema: JsonSchema };
  /** The fingerprint of `after`: what an operator approves, having reviewed it. */
  fingerprint?: string;
  /** Why, in words: what made a tool withheld, or which server a moved name was approved for. */
  reason?: string;
}

/**
 * What the gate tells a recorder, in order, for every call through an agent handle:
 * `toolCalled`, then `policyDecided` (when policy was consulted), then `toolReturned`. The ledger
 * implements it. A recorder that throws fails the call loudly: a run is never silently unrecorded.
 */
export interface Recorder {
  toolCalled(record: ToolCalledRecord): void | Promise<void>;
  policyDecided(record: PolicyDecidedRecord): void | Promise<void>;
  /** May resolve with where the record landed (the ledger's `LedgerRecorder`: its run id and seq), for a gate's observer. */
  toolReturned(record: ToolReturnedRecord): void | Promise<void> | RecordReceipt | Promise<RecordReceipt>;
  /**
   * Told when a derived agent ({@link AgentHandle.narrow}) makes its first call, before that call's
   * `toolCalled` (its ancestors' derivations first, when they made no call yet).
   */
  agentDerived?(record: AgentDerivedRecord): void | Promise<void>;
  /**
   * Told when an `ask` is put to an approver that answers later (`AgentHandle.check` with
   * `pending`), before it is answered; the call itself is recorded when it is answered.
   */
  policyAsked?(record: PolicyAskedRecord): void | Promise<void>;
}

/** A recorder that records nothing: the default. */
export const noopRecorder: Recorder = {
  toolCalled() {},
  policyDecided() {},
  toolReturned() {},
};
