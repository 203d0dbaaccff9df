import type { PolicyRequest, PolicyVerdict } from './policy.js';
import { applies, type CompiledRule, describeResource, judges, resourcesOf } from './policy-rules.js';

/** One rule that judged a resource of a call, as an explanation lists it. */
export interface JudgingRule {
  /** The rule's index (within its layer, when the policy has layers). */
  rule: number;
  layer?: string;
  decision: PolicyVerdict['decision'];
  /** The rule in words, e.g. `deny tools shell commands rm -rf *`. */
  text: string;
}

/** What policy says about a call and why: the verdict, and for each resource every rule that judged it. */
export interface PolicyExplanation {
  verdict: PolicyVerdict;
  resources: {
    /** The resource in words (`path "src/a.ts"`, `command "npm test"`, `unknown`, `none`). */
    resource: string;
    /** Every rule that judged it, in the policy's order; the strictest (the first of equals) decided. */
    judgedBy: JudgingRule[];
  }[];
}

/**
 * Every rule that judges each resource of `request`, by a scan of every rule (an explanation is
 * for people, not for the call path): the same tool, condition and pattern checks the index makes.
 */
export function judgingRules(
  rules: readonly CompiledRule[],
  request: PolicyRequest,
  place: (index: number) => { layer?: string; rule: number },
  describe: (compiled: CompiledRule) => string,
): PolicyExplanation['resources'] {
  return resourcesOf(request.subject).map((resource) => ({
    resource: describeResource(resource),
    judgedBy: rules
      .filter(
        (compiled) => compiled.tool(request.tool) && applies(compiled, request) && judges(compiled, resource),
      )
      .map((compiled) => ({
        ...place(compiled.index),
        decision: compiled.rule.decision,
        text: describe(compiled),
      })),
  }));
}
