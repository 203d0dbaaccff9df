import type { Authorization, JudgeOptions, ToolContext } from '../context.js';
import type { Approver } from '../gate-options.js';
import type { JsonObject } from '../json.js';
import type { Policy, PolicyRequest, PolicySubject, PolicyVerdict } from '../policy.js';
import { describeResource, resourcesOf } from '../policy-rules.js';
import type { Recorder } from '../recorder.js';
import { decide, decisionSentence } from './decide.js';
import { judgedOf, recordDecided } from './record.js';

/** The part of a {@link ToolContext} through which a running tool asks policy (see `authorize`, `judge`). */
export type CallAuthority = Pick<ToolContext, 'authorize' | 'judge' | 'judgesPaths'>;

/** What a call's {@link CallAuthority} judges with: the gate's policy and the call's approver, the call, its recorder. */
export interface CallAuthorityOptions {
  policy: Policy;
  approver: Approver | undefined;
  recorder: Recorder;
  callId: string;
  agent: string;
  tool: string;
  parameters: JsonObject;
  /** The gateway client of the call, for rules' `clients:`. */
  client?: string | undefined;
  /** The narrowed agent's path, for rules' `agents:`. */
  agentPath?: string | undefined;
}

const noGate = 'no gate judges this call';

/** The authority of a call run without a gate (a test calling `run`, `ToolRegistry.call`): everything is allowed. */
export const allowingAuthority: CallAuthority = Object.freeze({
  authorize: async (): Promise<Authorization> => ({ allowed: true, verdict: 'allow', reason: noGate }),
  judge: (): PolicyVerdict => ({ decision: 'allow', reason: noGate }),
  judgesPaths: () => false,
});

/**
 * The authorize station: what a running tool asks about an object it found while running (a
 * redirect hop, a path a search meets, a host a sandboxed command connects to). `judge` is policy's
 * verdict as data; `authorize` is that verdict decided as the call's own is (an `ask` put to the
 * call's approver; none: refused, saying so) and recorded through the call's recorder as one more
 * `policy.decided` of the call, its verdict's reason naming the subject.
 */
export function callAuthority(options: CallAuthorityOptions): CallAuthority {
  const { policy, approver, recorder, callId, agent, tool, parameters, client, agentPath } = options;
  const requestFor = (subject: PolicySubject, name = tool): PolicyRequest => ({
    agent,
    ...(client === undefined ? {} : { client }),
    ...(agentPath === undefined ? {} : { agentPath }),
    tool: name,
    parameters,
    subject,
  });
  return {
    judge: (subject: PolicySubject, judged?: JudgeOptions) =>
      policy.decide(requestFor(subject, judged?.tool ?? tool)),
    judgesPaths: (judged?: JudgeOptions) => policy.judgesPaths?.(judged?.tool ?? tool) ?? true,
    async authorize(subject: PolicySubject): Promise<Authorization> {
      const request = requestFor(subject);
      const judged = policy.decide(request);
      const verdict: PolicyVerdict = { ...judged, reason: `${foundDuringTheCall(subject)}${judged.reason}` };
      const decided = await decide({ policy: { decide: () => verdict }, request, callId, approver });
      await recordDecided({ recorder, callId, agent, tool }, decided, judgedOf(request));
      const rule = verdict.rule === undefined ? {} : { rule: verdict.rule };
      const reason = decisionSentence(verdict, decided.answer);
      return { allowed: decided.allowed, verdict: verdict.decision, reason, ...rule };
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
