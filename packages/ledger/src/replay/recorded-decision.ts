import type { Answer, PolicyVerdict } from '@toolgate/core';
import type { Decision, Judged } from '@toolgate/core/internal';

/** A recorded decision as data: policy's verdict, the answer to an `ask`, and what happened. */
export interface RecordedDecision {
  decision: 'allow' | 'deny';
  verdict: PolicyVerdict;
  answer?: Answer;
}

type Payload = Record<string, unknown>;

/**
 * A `policy.decided` payload as data, in either form a ledger holds: the current one (verdict and
 * answer as fields) read as it is; the form written before decisions were data (`verdict` a word,
 * the answer folded into `reason` as a sentence) read here — and only here — by splitting that
 * sentence the way the gate of that time built it.
 */
export function recordedDecision(payload: Payload): RecordedDecision {
  const decision = payload.decision === 'allow' ? 'allow' : 'deny';
  if (typeof payload.verdict === 'object' && payload.verdict !== null) {
    const recorded: RecordedDecision = { decision, verdict: payload.verdict as PolicyVerdict };
    if (typeof payload.answer === 'object' && payload.answer !== null)
      // parametersDigest binds the record to its call; it is not part of the answer handed back
      recorded.answer = withoutDigest(payload.answer as Answer & { parametersDigest?: unknown });
    return recorded;
  }
  return legacyDecision(payload, decision);
}

const noApprover = '; policy says ask and no approver is configured';
const approverFailed = /^([\s\S]*); the approver failed \(([\s\S]*)\), so it is denied$/;

function legacyDecision(payload: Payload, decision: 'allow' | 'deny'): RecordedDecision {
  const reason = String(payload.reason ?? '');
  const rule = typeof payload.rule === 'number' ? { rule: payload.rule } : {};
  const said = String(payload.verdict) as Decision;
  if (said !== 'ask') return { decision, verdict: { decision: said, ...rule, reason } };
  const verdict = (policyReason: string): PolicyVerdict => ({
    decision: 'ask',
    ...rule,
    reason: policyReason,
  });
  if (reason.endsWith(noApprover)) {
    return {
      decision,
      verdict: verdict(reason.slice(0, -noApprover.length)),
      answer: { from: 'nobody', approved: false },
    };
  }
  const failed = approverFailed.exec(reason);
  if (failed) {
    return {
      decision,
      verdict: verdict(failed[1]!),
      answer: { from: 'failed', approved: false, reason: failed[2]! },
    };
  }
  const approved = decision === 'allow';
  const word = `; ${approved ? 'approved' : 'not approved'}`;
  for (let at = reason.lastIndexOf(word); at >= 0; at = reason.lastIndexOf(word, at - 1)) {
    const rest = reason.slice(at + word.length);
    if (rest === '')
      return { decision, verdict: verdict(reason.slice(0, at)), answer: { from: 'approver', approved } };
    if (rest.startsWith(': ')) {
      const answer: Answer = { from: 'approver', approved, reason: rest.slice(2) };
      return { decision, verdict: verdict(reason.slice(0, at)), answer };
    }
    if (rest.startsWith(' by ')) {
      const named = rest.slice(4);
      const colon = named.indexOf(': ');
      const answer: Answer =
        colon < 0
          ? { from: 'caller', approved, by: named }
          : { from: 'caller', approved, by: named.slice(0, colon), reason: named.slice(colon + 2) };
      return { decision, verdict: verdict(reason.slice(0, at)), answer };
    }
  }
  return { decision, verdict: verdict(reason), answer: { from: 'approver', approved } };
}

/** What a `policy.decided` payload says its verdict judged, as recorded (a field absent stays absent). */
export function recordedJudged(payload: Payload): Judged {
  const judged: Judged = {};
  if (payload.subject !== undefined) judged.subject = payload.subject as Judged['subject'];
  if (typeof payload.client === 'string') judged.client = payload.client;
  if (typeof payload.agentPath === 'string') judged.agentPath = payload.agentPath;
  return judged;
}

function withoutDigest(answer: Answer & { parametersDigest?: unknown }): Answer {
  const { parametersDigest: _, ...rest } = answer;
  return rest;
}
