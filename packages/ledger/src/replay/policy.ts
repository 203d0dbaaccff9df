import type { Approver, Policy, PolicyRequest, PolicyVerdict } from '@toolgate/core';
import type { RecordedCall } from './recording.js';

type Lookup = (request: PolicyRequest) => RecordedCall | undefined;

interface Decided {
  verdict: PolicyVerdict['decision'];
  decision: 'allow' | 'deny';
  reason: string;
  rule?: number;
}

const noApprover = '; policy says ask and no approver is configured';
const approverFailed = /^([\s\S]*); the approver failed \(([\s\S]*)\), so it is denied$/;

/**
 * Decides each replayed call as the recording says it was decided, so a replay needs neither the
 * original policy nor the tools that told it what a call touches.
 */
export class ReplayPolicy implements Policy {
  readonly #lookup: Lookup;

  constructor(lookup: Lookup) {
    this.#lookup = lookup;
  }

  decide(request: PolicyRequest): PolicyVerdict {
    const decided = this.#lookup(request)?.decided?.payload as Decided | undefined;
    if (!decided) return { decision: 'allow', reason: 'replayed call with no recorded decision' };
    const rule = decided.rule === undefined ? {} : { rule: decided.rule };
    if (decided.verdict !== 'ask') return { decision: decided.verdict, reason: decided.reason, ...rule };
    return { decision: 'ask', reason: splitAsk(decided).policyReason, ...rule };
  }
}

/**
 * Answers each replayed `ask` as it was answered. Undefined when the recording shows the gate had
 * no approver, so the replay's gate has none either.
 */
export function replayApprover(calls: readonly RecordedCall[], lookup: Lookup): Approver | undefined {
  const asks = calls
    .map((call) => call.decided?.payload as Decided | undefined)
    .filter((d) => d?.verdict === 'ask');
  if (asks.some((decided) => decided!.reason.endsWith(noApprover))) return undefined;
  return (request) => {
    const decided = lookup(request)?.decided?.payload as Decided | undefined;
    if (!decided) return false;
    const split = splitAsk(decided);
    if (split.failure !== undefined) throw new Error(split.failure);
    return split.because === undefined
      ? decided.decision === 'allow'
      : { approved: decided.decision === 'allow', reason: split.because };
  };
}

/** Splits a recorded `ask` reason back into policy's reason and the approver's answer. */
function splitAsk(decided: Decided): { policyReason: string; because?: string; failure?: string } {
  const { reason } = decided;
  if (reason.endsWith(noApprover)) return { policyReason: reason.slice(0, -noApprover.length) };
  const failed = approverFailed.exec(reason);
  if (failed) return { policyReason: failed[1]!, failure: failed[2]! };
  const word = `; ${decided.decision === 'allow' ? 'approved' : 'not approved'}`;
  for (let at = reason.lastIndexOf(word); at >= 0; at = reason.lastIndexOf(word, at - 1)) {
    const rest = reason.slice(at + word.length);
    if (rest === '' || rest.startsWith(' by ')) return { policyReason: reason.slice(0, at) };
    if (rest.startsWith(': ')) return { policyReason: reason.slice(0, at), because: rest.slice(2) };
  }
  return { policyReason: reason };
}
