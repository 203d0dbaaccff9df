import { type Approver, messageOf, RulePolicy } from '@toolgate/core';
import { writeAlwaysRule } from '@toolgate/policy-cli';
import { loadConfig } from '../config-load.js';
import type { Gateway } from '../gateway.js';

type ApproverAnswer = Exclude<Awaited<ReturnType<Approver>>, boolean>;

/**
 * Wraps a client's approver so an answer with `scope: 'always'` is written back, as a rule, to the
 * `policy:` layer that says `remember: true` (policy-cli's `writeAlwaysRule`: the same tool, client
 * and resources only), and the gateway's policy is read again from its config, so the next such
 * call is judged by the rule without asking. Where no rule can be written (no remembering layer, a
 * call toolgate cannot name exactly, an ask a rule gave), the answer counts for this call only: its
 * scope becomes `once` and its reason says why. Either way this call goes as the user answered.
 */
export function writingAlways(gateway: Gateway, approver: Approver): Approver {
  return async (request) => {
    const given = await approver(request);
    const answer: ApproverAnswer = typeof given === 'boolean' ? { approved: given } : given;
    if (answer.scope !== 'always') return given;
    const once = (why: string): ApproverAnswer => ({
      ...answer,
      scope: 'once',
      reason: `${answer.reason ?? 'answered'}, always, but it counts once: ${why}`,
    });
    const { rememberFile, policy, source } = gateway.config;
    if (rememberFile === undefined)
      return once(`no policy: layer says remember: true in ${source}, so there is nowhere to write it`);
    if (!(policy instanceof RulePolicy)) return once('the gateway policy is not a list of rules');
    const decision = answer.approved ? 'allow' : 'deny';
    const done = await writeAlwaysRule({
      file: rememberFile,
      policy,
      request,
      decision,
      reason: `${request.client ?? request.agent}'s user answered "${decision} always"`,
    });
    if (!done.written) return once(done.why);
    try {
      // the policy as the files now say, in force for the next call (the rest of the config unchanged)
      const next = await loadConfig(source);
      await gateway.reload({ ...gateway.config, policy: next.policy });
    } catch (error) {
      return {
        ...answer,
        reason: `${answer.reason ?? 'answered'}, always: written to ${rememberFile}, but the policy could not be read again (${messageOf(error)}); reload the gateway (SIGHUP)`,
      };
    }
    return { ...answer, reason: `${answer.reason ?? 'answered'}, always: remembered in ${rememberFile}` };
  };
}
