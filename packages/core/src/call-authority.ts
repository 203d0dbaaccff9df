import type { Authorization, JudgeOptions, ToolContext } from './context.js';
import { messageOf } from './errors.js';
import type { ApprovalRequest, Approver } from './gate-options.js';
import type { JsonObject } from './json.js';
import type { Policy, PolicyRequest, PolicySubject, PolicyVerdict } from './policy.js';
import { describeResource, resourcesOf } from './policy-rules.js';
import { noopRecorder, type Recorder } from './recorder.js';

/** The part of a {@link ToolContext} through which a running tool asks policy (see `authorize`, `judge`). */
export type CallAuthority = Pick<ToolContext, 'authorize' | 'judge'>;

/** What a call's {@link CallAuthority} judges with: the gate's policy and approver, the call, its recorder. */
export interface CallAuthorityOptions {
  policy: Policy;
  approver: Approver | undefined;
  recorder: Recorder;
  callId: string;
  agent: string;
  tool: string;
  parameters: JsonObject;
}

const noGate = 'no gate judges this call';

/** The authority of a call run without a gate (a test calling `run`, `ToolRegistry.call`): everything is allowed. */
export const allowingAuthority: CallAuthority = Object.freeze({
  authorize: async (): Promise<Authorization> => ({ allowed: true, verdict: 'allow', reason: noGate }),
  judge: (): PolicyVerdict => ({ decision: 'allow', reason: noGate }),
});

/**
 * The authority the gate gives a call it runs: `judge` is policy's verdict as data; `authorize` is
 * that verdict with `ask` answered by the approver (no approver: refused, saying so), recorded
 * through the call's recorder as a `policy.decided` of the call, its reason naming the subject.
 */
export function callAuthority(options: CallAuthorityOptions): CallAuthority {
  const { policy, approver, recorder, callId, agent, tool, parameters } = options;
  const requestFor = (subject: PolicySubject, name = tool): PolicyRequest => ({
    agent,
    tool: name,
    parameters,
    subject,
  });
  return {
    judge: (subject: PolicySubject, judged?: JudgeOptions) =>
      policy.decide(requestFor(subject, judged?.tool ?? tool)),
    async authorize(subject: PolicySubject): Promise<Authorization> {
      const request = requestFor(subject);
      const verdict = policy.decide(request);
      const policyReason = `${foundDuringTheCall(subject)}${verdict.reason}`;
      const { allowed, reason } =
        verdict.decision === 'ask'
          ? await answerAsk(approver, policyReason, { ...request, callId, reason: policyReason })
          : { allowed: verdict.decision === 'allow', reason: policyReason };
      const rule = verdict.rule === undefined ? {} : { rule: verdict.rule };
      if (recorder !== noopRecorder) {
        const decision = allowed ? 'allow' : 'deny';
        await recorder.policyDecided({
          callId,
          agent,
          tool,
          verdict: verdict.decision,
          decision,
          reason,
          ...rule,
        });
      }
      return { allowed, verdict: verdict.decision, reason, ...rule };
    },
  };
}

/** `found during the call: host "x": `, so a recorded decision names what it was about. */
function foundDuringTheCall(subject: PolicySubject): string {
  const resources = resourcesOf(subject);
  const named =
    resources.length === 1 && resources[0]!.kind !== 'none' ? `${describeResource(resources[0]!)}: ` : '';
  return `found during the call: ${named}`;
}

/**
 * An `ask` put to the approver: allowed only on its yes; no approver, a no, or an approver that
 * fails all refuse, and the reason says which. `policyReason` is policy's reason it extends.
 */
export async function answerAsk(
  approver: Approver | undefined,
  policyReason: string,
  request: ApprovalRequest,
): Promise<{ allowed: boolean; reason: string }> {
  if (!approver)
    return { allowed: false, reason: `${policyReason}; policy says ask and no approver is configured` };
  try {
    const answer = await approver(request);
    const approved = typeof answer === 'boolean' ? answer : answer.approved === true;
    const because = typeof answer === 'object' && answer.reason ? `: ${answer.reason}` : '';
    return {
      allowed: approved,
      reason: `${policyReason}; ${approved ? 'approved' : 'not approved'}${because}`,
    };
  } catch (error) {
    return {
      allowed: false,
      reason: `${policyReason}; the approver failed (${messageOf(error)}), so it is denied`,
    };
  }
}
