import type { ExternalDecision } from '../context.js';
import { messageOf } from '../errors.js';
import type { ApprovalRequest, Approver } from '../gate-options.js';
import type { Policy, PolicyRequest, PolicyVerdict } from '../policy.js';

/** Who answered an `ask`: the approver, the caller (an external decision), nobody (no approver), or an approver that failed. */
export type AnswerSource = 'approver' | 'caller' | 'nobody' | 'failed';

/** The answer to an `ask`, as data: who answered, whether they approved, by whom, and why. */
export interface Answer {
  from: AnswerSource;
  approved: boolean;
  /** Who decided, when named (the caller's `by`; an approver's `by`). */
  by?: string;
  /** How far the approval reaches, when the approver said (e.g. `session`). */
  scope?: string;
  /** Why, when said; for `failed`, what the approver's failure said. */
  reason?: string;
}

/** A call decided: policy's verdict, the answer when it said `ask`, and whether the call runs. */
export interface Decided {
  verdict: PolicyVerdict;
  answer?: Answer;
  allowed: boolean;
}

/** What the decide station needs besides the request. */
export interface DecideOptions {
  policy: Policy;
  request: PolicyRequest;
  callId: string;
  /** Answers `ask` when the caller gave no decision. */
  approver?: Approver | undefined;
  /** The caller's answer to an `ask` (a framework's approval UI), used in place of the approver. */
  decision?: ExternalDecision | undefined;
}

/**
 * The decide station: policy's verdict on a call and, when it says `ask`, the answer — the caller's
 * decision when given, else the approver's, else nobody's (a deny that says so). A failing approver
 * is a deny that says how it failed. When policy allows, a caller's refusal is the answer and the
 * call is refused (a decision only narrows). Synchronous unless an approver is asked.
 */
export function decide(options: DecideOptions): Decided | Promise<Decided> {
  const verdict = options.policy.decide(options.request);
  if (verdict.decision === 'deny') return { verdict, allowed: false };
  const answer = options.decision === undefined ? undefined : callerAnswer(options.decision, options.request);
  if (verdict.decision === 'allow') {
    // a caller's refusal narrows an allowed call (an app's own approval policy said no); its approval adds nothing
    return answer !== undefined && !answer.approved
      ? { verdict, answer, allowed: false }
      : { verdict, allowed: true };
  }
  if (answer !== undefined) return { verdict, answer, allowed: answer.approved };
  const approver = options.approver;
  if (approver === undefined) return { verdict, answer: { from: 'nobody', approved: false }, allowed: false };
  return ask(approver, { ...options.request, callId: options.callId, reason: verdict.reason }).then(
    (answered) => ({
      verdict,
      answer: answered,
      allowed: answered.approved,
    }),
  );
}

/**
 * A decision given as data (a recording's): whether the call runs follows from the verdict and the
 * answer (an `allow` with a caller's refusal as its answer does not run).
 */
export function decidedOf(given: Pick<Decided, 'verdict' | 'answer'>): Decided {
  const { verdict, answer } = given;
  const allowed =
    (verdict.decision === 'allow' && answer?.approved !== false) ||
    (verdict.decision === 'ask' && answer?.approved === true);
  return answer === undefined ? { verdict, allowed } : { verdict, answer, allowed };
}

/** Decisions bound to parameters that already answered a call: each answers one. */
const usedDecisions = new WeakSet<object>();

function callerAnswer(decision: ExternalDecision, request: PolicyRequest): Answer {
  const by = typeof decision.by === 'string' && decision.by !== '' ? decision.by : 'an unnamed caller';
  if (decision.parameters !== undefined) {
    const reused = usedDecisions.has(decision);
    usedDecisions.add(decision);
    if (reused)
      return {
        from: 'caller',
        approved: false,
        by,
        reason: 'this decision already answered a call; decide again for this one',
      };
    if (canonicalText(decision.parameters) !== canonicalText(request.parameters))
      return {
        from: 'caller',
        approved: false,
        by,
        reason: "this decision was made for other parameters than the call's; decide again for these",
      };
  }
  const answer: Answer = { from: 'caller', approved: decision.approved === true, by };
  if (typeof decision.reason === 'string' && decision.reason) answer.reason = decision.reason;
  return answer;
}

async function ask(approver: Approver, request: ApprovalRequest): Promise<Answer> {
  try {
    const given = await approver(request);
    if (typeof given === 'boolean') return { from: 'approver', approved: given };
    const answer: Answer = { from: 'approver', approved: given.approved === true };
    if (typeof given.by === 'string' && given.by !== '') answer.by = given.by;
    if (typeof given.scope === 'string' && given.scope !== '') answer.scope = given.scope;
    if (typeof given.reason === 'string' && given.reason) answer.reason = given.reason;
    return answer;
  } catch (error) {
    return { from: 'failed', approved: false, reason: messageOf(error) };
  }
}

/**
 * A decision in words, for people (the ledger's `show`, the viewer, a denial's message): policy's
 * reason, then the answer — `…; approved by alice: looks fine`, `…; policy says ask and no approver
 * is configured`, `…; the approver failed (boom), so it is denied`. Derived, never parsed back.
 */
export function decisionSentence(verdict: Pick<PolicyVerdict, 'reason'>, answer?: Answer): string {
  if (answer === undefined) return verdict.reason;
  switch (answer.from) {
    case 'nobody':
      return `${verdict.reason}; policy says ask and no approver is configured`;
    case 'failed':
      return `${verdict.reason}; the approver failed (${answer.reason ?? ''}), so it is denied`;
    default: {
      const by = answer.by === undefined ? '' : ` by ${answer.by}`;
      const because = answer.reason ? `: ${answer.reason}` : '';
      return `${verdict.reason}; ${answer.approved ? 'approved' : 'not approved'}${by}${because}`;
    }
  }
}

/** JSON text with every object's keys sorted: equal for equal values, whatever the key order. */
function canonicalText(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}
