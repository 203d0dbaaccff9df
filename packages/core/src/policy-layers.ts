import { ToolgateError } from './errors.js';
import { type PolicyDocument, RulePolicy } from './policy.js';

/** One document of a layered policy, and the name verdicts give it (`managed`, `project`, `user`, …). */
export interface PolicyLayer {
  name: string;
  /** The layer's rules: a document, or a policy built from one (`parsePolicyText`). */
  policy: PolicyDocument | RulePolicy;
}

/** Where one layer's rules start in the rules of a layered policy. */
export interface LayerSpan {
  readonly name: string;
  readonly start: number;
}

/**
 * A policy of several documents, from most to least authoritative. Every rule of every layer is
 * judged as in one document — the strictest matching rule wins, and of equally strict ones the
 * more authoritative layer's — so no layer below can loosen a deny or an ask above it (a project's
 * allow under a managed deny stays denied), while any layer may tighten. The default is that of the
 * most authoritative layer that sets one (else deny). A verdict names its layer and the rule's
 * index within it.
 *
 * @example
 * const policy = layeredPolicy([
 *   { name: 'managed', policy: parsePolicyText(managedText, 'managed.yaml') },
 *   { name: 'project', policy: parsePolicyText(projectText, 'toolgate.yaml') },
 * ]);
 */
export function layeredPolicy(layers: readonly PolicyLayer[]): RulePolicy {
  const names = new Set<string>();
  const spans: LayerSpan[] = [];
  const rules: PolicyDocument['rules'][number][] = [];
  let fallback: { layer: string; decision: NonNullable<PolicyDocument['default']> } | undefined;
  for (const layer of layers) {
    if (names.has(layer.name))
      throw new ToolgateError(
        'INVALID_DEFINITION',
        `two policy layers are named ${JSON.stringify(layer.name)}; give each layer its own name`,
      );
    names.add(layer.name);
    const document = layer.policy instanceof RulePolicy ? layer.policy.document : layer.policy;
    spans.push({ name: layer.name, start: rules.length });
    rules.push(...document.rules);
    if (fallback === undefined && document.default !== undefined)
      fallback = { layer: layer.name, decision: document.default };
  }
  return new RulePolicy(
    { ...(fallback === undefined ? {} : { default: fallback.decision }), rules },
    { spans, ...(fallback === undefined ? {} : { defaultLayer: fallback.layer }) },
  );
}
