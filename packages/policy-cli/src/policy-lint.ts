import type { PolicyRule, RulePolicy } from '@toolgate/core';
import { RulePolicy as Rules } from '@toolgate/core';

/** A rule that can never decide a call, and the rule that takes every call it could judge. */
export interface LintFinding {
  /**
   * `shadowed`: an earlier rule with the same decision judges every call this one could (removing
   * this one changes nothing); `unreachable`: a stricter rule judges every call this one could, so
   * it never decides (an allow under a blanket deny).
   */
  readonly kind: 'shadowed' | 'unreachable';
  /** The rule's index within its layer, and its layer when the policy has layers. */
  readonly rule: number;
  readonly layer?: string;
  /** The rule that covers it. */
  readonly by: { readonly rule: number; readonly layer?: string };
  readonly message: string;
}

const strictness = { allow: 0, ask: 1, deny: 2 } as const;
const conditions = ['agents', 'clients', 'where', 'paths', 'commands', 'hosts'] as const;

/**
 * Rules that can never decide anything, found conservatively: rule B covers rule A when B judges
 * every call A could — B's tool patterns cover A's (B names no tools, or names each of A's tools,
 * or `*`), and each of B's other conditions (agents, clients, where, paths, commands, hosts) is
 * absent or the same as A's. A is then shadowed (B earlier, same decision) or unreachable (B
 * stricter: the strictest rule wins). Only certain coverage is reported, never a guess.
 *
 * @example
 * for (const finding of lintPolicy(loadPolicyFiles(['policy.yaml']).policy)) console.log(finding.message);
 */
export function lintPolicy(
  policy: RulePolicy,
  place: (index: number) => { rule: number; layer?: string } = (rule) => ({ rule }),
): LintFinding[] {
  const rules = policy.document.rules;
  const findings: LintFinding[] = [];
  for (const [index, rule] of rules.entries()) {
    for (const [other, by] of rules.entries()) {
      if (other === index) continue;
      const stricter = strictness[by.decision] > strictness[rule.decision];
      const earlierEqual = by.decision === rule.decision && other < index;
      if (!stricter && !earlierEqual) continue;
      if (!covers(by, rule)) continue;
      const kind = stricter ? 'unreachable' : 'shadowed';
      const at = place(index);
      const from = place(other);
      findings.push({
        kind,
        ...at,
        by: from,
        message:
          `${named(at)} (${rule.decision}) is ${kind}: ${named(from)} (${by.decision}) judges every call it could` +
          (kind === 'shadowed' ? ', with the same decision; remove one' : ', and the strictest rule wins'),
      });
      break;
    }
  }
  return findings;
}

function named(place: { rule: number; layer?: string }): string {
  return place.layer === undefined ? `rule ${place.rule}` : `rule ${place.rule} of layer ${place.layer}`;
}

/** True when `by` judges every call `rule` could: its tools cover, and its conditions are absent or equal. */
function covers(by: PolicyRule, rule: PolicyRule): boolean {
  for (const key of conditions) {
    if (by[key] === undefined) continue;
    if (rule[key] === undefined || canonical(by[key]) !== canonical(rule[key])) return false;
  }
  if (by.tools === undefined) return true;
  if (rule.tools === undefined) return by.tools.some((pattern) => pattern === '*' || pattern === '**');
  const probe = new Rules({ default: 'allow', rules: [{ tools: by.tools, decision: 'deny' }] });
  return rule.tools.every((pattern) =>
    /[*?[\]{}]/.test(pattern)
      ? by.tools!.some((each) => each === pattern || each === '*' || each === '**')
      : probe.decide({ agent: 'lint', tool: pattern, parameters: {} }).decision === 'deny',
  );
}

function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}
