import type { JsonObject } from './json.js';
import type { RuleExamples } from './policy-examples.js';
import { checkExamples } from './policy-examples.js';
import { judgingRules, type PolicyExplanation } from './policy-explain.js';
import { PolicyIndex } from './policy-index.js';
import type { LayerSpan } from './policy-layers.js';
import { describeResource, describeRule, type Resource, resourcesOf, strictness } from './policy-rules.js';
import type { ArgumentConditions } from './policy-where.js';

/** What policy says about a call. `ask` defers to an approver. */
export type Decision = 'allow' | 'deny' | 'ask';

/**
 * The canonical resources a call touches, as the tool itself resolved them: paths relative to the
 * workspace root after resolving `..` and symlinks (an escaping path is absolute), every command of
 * a compound shell line as argv tokens, and lower-cased host names. `{}` says the call touches none.
 */
export interface PolicySubject {
  paths?: readonly string[];
  commands?: readonly (readonly string[])[];
  hosts?: readonly string[];
  /** Resource URIs read (a gateway's `resources/read`, passed unchanged). */
  resources?: readonly string[];
}

/**
 * One policy rule. Every resource a call touches (each path, each command of a shell line, each
 * host) gets its own verdict, and the call's verdict is the strictest of them. A rule without
 * `paths`, `commands` or `hosts` judges every call of the tools it names. A rule with them judges
 * only the resources of those kinds that its patterns cover; when toolgate cannot tell what a call
 * touches (its subject is unknown), such a rule applies if it denies and never if it allows or asks.
 */
export interface PolicyRule {
  /** Tool name patterns (globs such as `mcp__*`); omitted means every tool. */
  tools?: readonly string[];
  /**
   * Agent patterns: the rule applies only to calls of a matching agent. A narrowed child is matched
   * by its path, its ancestors' names and its own (`lead.narrow(tools, 'critic')` is `lead/critic`),
   * so `lead` is the lead alone, `lead/*` its children and `lead/**` every descendant. Omitted
   * means every agent.
   */
  agents?: readonly string[];
  /**
   * Gateway client name patterns: the rule applies only to calls a matching client of
   * `toolgate-gateway` made. A call that came through no gateway client matches none. Omitted
   * means every caller.
   */
  clients?: readonly string[];
  /**
   * Conditions on the call's arguments: JSON pointers into its parameters, each with a glob or an
   * RE2 `regex` the string there must match (`{ '/method': 'POST' }`). An argument absent or not a
   * string matches no predicate, unless a rule that denies says `missing: 'matches'`.
   */
  where?: ArgumentConditions;
  /**
   * Calls the rule must judge (`match`) and must not (`not_match`), checked when the policy is
   * built: a failing example refuses the policy, naming the rule.
   */
  examples?: RuleExamples;
  /** Path globs over workspace-relative resolved paths, e.g. `src/**`. */
  paths?: readonly string[];
  /** Commands as argv tokens, e.g. `npm test`; a final `*` token allows further arguments. */
  commands?: readonly string[];
  /** Host globs, e.g. `api.example.com`, `*.example.com`. */
  hosts?: readonly string[];
  /** Resource URI globs (`**` any characters, `*` any but `/`), e.g. `file:///srv/docs/**`. */
  resources?: readonly string[];
  decision: Decision;
  /** Why, shown to the model when the rule refuses a call. */
  reason?: string;
}

/** A policy: rules, and the decision when none matches. */
export interface PolicyDocument {
  /** The decision when no rule matches. Default `deny`. */
  default?: Decision;
  rules: readonly PolicyRule[];
}

/** A call as policy sees it. */
export interface PolicyRequest {
  agent: string;
  /** The gateway client that made the call (the gateway's grants carry it); absent elsewhere. */
  client?: string;
  /** The agent's path when it was narrowed from another (`lead/critic`); absent for a root agent. */
  agentPath?: string;
  tool: string;
  parameters: JsonObject;
  /**
   * What the call touches; absent when toolgate could not compute it (a tool with no subject hook,
   * a remote tool with no subject mapping). Rules on paths, commands or hosts then fail closed.
   */
  subject?: PolicySubject;
}

/** Policy's answer, as data: the decision, the rule that decided (absent when a default did), and why. */
export interface PolicyVerdict {
  decision: Decision;
  /** The index of the rule that decided; absent when the default decided. */
  rule?: number;
  /** Which layer of a layered policy decided (e.g. `org`, `project`), when the policy has layers. */
  layer?: string;
  reason: string;
}

/**
 * Decides allow / deny / ask for a call, as data: the decision, the rule that decided (absent when
 * a default did) and the reason. The gate's decide station asks it once per call. Rules as data
 * are {@link RulePolicy}; a policy that delegates (the gateway's, following its reloaded config)
 * is any object with `decide`.
 */
export interface Policy {
  decide(request: PolicyRequest): PolicyVerdict;
  /**
   * False only when no path can change this policy's verdict on a call of `tool`: every path is
   * judged as a call that touches nothing is. A tool that would ask about each file it meets (a
   * search) then need not. Absent, or true, when the policy cannot tell: each path is asked about.
   */
  judgesPaths?(tool: string): boolean;
}

/**
 * A policy of rules: when several rules match, the strictest wins (deny > ask > allow), and of
 * equally strict ones the first. The rules are indexed (by tool name and pattern, then by the
 * literal parts of their paths, hosts and commands), so a decide with 10,000 rules costs about what
 * one with a single rule does. Build one
 * from data with {@link parsePolicy} or take a preset from `@toolgate/builtins`' `policies`.
 *
 * @example
 * const policy = new RulePolicy({ rules: [{ tools: ['read_file'], paths: ['src/**'], decision: 'allow' }] });
 */
export class RulePolicy implements Policy {
  readonly document: PolicyDocument;
  readonly #index: PolicyIndex;
  readonly #fallback: PolicyVerdict;
  /** True for a policy of no rules (`allowAll()`, the gate's default). */
  readonly #ruleless: boolean;
  /**
   * Where each layer's rules start in `document.rules` (a {@link layeredPolicy}), or undefined: what a
   * ledger records beside the document so a verdict's layer and rule can be judged again.
   */
  readonly layers: { readonly spans: readonly LayerSpan[]; readonly defaultLayer?: string } | undefined;

  /** `layers` is for {@link layeredPolicy}: where each layer's rules start in `document.rules`. */
  constructor(document: PolicyDocument, layers?: { spans: readonly LayerSpan[]; defaultLayer?: string }) {
    this.document = document;
    this.#index = new PolicyIndex(document.rules);
    checkExamples(this.#index.rules);
    this.#ruleless = this.#index.rules.length === 0;
    this.layers = layers;
    const decision = document.default ?? 'deny';
    const from = layers?.defaultLayer === undefined ? '' : ` (set by layer ${layers.defaultLayer})`;
    this.#fallback = Object.freeze({
      decision,
      reason: `no rule matched; the default is ${decision}${from}`,
    });
  }

  /**
   * The verdict on `request` and why: for each resource the call touches, every rule that judged it
   * (with its layer), so a person can see which rule decided and which it outranked.
   *
   * @example
   * const { verdict, resources } = policy.explain({ agent: 'a', tool: 'shell', parameters: {}, subject: { commands: [['rm', '-rf', 'x']] } });
   */
  explain(request: PolicyRequest): PolicyExplanation {
    return {
      verdict: this.decide(request),
      resources: judgingRules(
        this.#index.rules,
        request,
        (index) => this.#place(index),
        (compiled) => describeRule(compiled.rule),
      ),
    };
  }

  /** The layer and the index within it of rule `index` (the layer undefined when there are none). */
  #place(index: number): { layer?: string; rule: number } {
    const spans = this.layers?.spans;
    if (spans === undefined) return { rule: index };
    let span = spans[0]!;
    for (const each of spans) if (each.start <= index) span = each;
    return { layer: span.name, rule: index - span.start };
  }

  /** False when no rule naming `tool` (or every tool) has paths; see {@link Policy.judgesPaths}. */
  judgesPaths(tool: string): boolean {
    return this.#index.judgesPaths(tool);
  }

  /**
   * The verdict for one call: each resource it touches is judged on its own (the strictest matching
   * rule, or the default), and the strictest of those verdicts is the call's.
   */
  decide(request: PolicyRequest): PolicyVerdict {
    // no rules and no subject: the one resource is judged by the default, as the walk below would
    if (this.#ruleless && request.subject === undefined) return this.#fallback;
    const resources = resourcesOf(request.subject);
    let verdict: PolicyVerdict | undefined;
    for (const resource of resources) {
      const found = this.#judge(request, resource, resources.length > 1);
      if (verdict === undefined || strictness[found.decision] > strictness[verdict.decision]) verdict = found;
    }
    return verdict ?? this.#fallback;
  }

  #judge(request: PolicyRequest, resource: Resource, name: boolean): PolicyVerdict {
    const { tool } = request;
    const { decided, skipped } = this.#index.judge(request, resource);
    const prefix = name ? `${describeResource(resource)}: ` : '';
    if (decided === undefined) {
      if (!skipped)
        return name ? { ...this.#fallback, reason: prefix + this.#fallback.reason } : this.#fallback;
      return {
        decision: this.#fallback.decision,
        reason:
          `no rule matched (${unknownSubject(tool)}, so rules on them that allow or ask do not apply); ` +
          `the default is ${this.#fallback.decision}`,
      };
    }
    const { rule } = decided;
    const place = this.#place(decided.index);
    const named = place.layer === undefined ? '' : ` of layer ${place.layer}`;
    const reason = rule.reason ?? `rule ${place.rule}${named} (${describeRule(rule)})`;
    return {
      decision: rule.decision,
      rule: place.rule,
      ...(place.layer === undefined ? {} : { layer: place.layer }),
      reason:
        prefix +
        (resource.kind === 'unknown' && rule.decision === 'deny' && decided.constrained
          ? `${reason}; ${unknownSubject(tool)}, so a rule on them that denies applies`
          : reason),
    };
  }
}

function unknownSubject(tool: string): string {
  return `toolgate cannot tell which paths, commands, hosts or resources "${tool}" touches`;
}

/** A policy that allows every granted call (the gate's default: the grant is still the boundary). */
export function allowAll(): RulePolicy {
  return new RulePolicy({ default: 'allow', rules: [] });
}
