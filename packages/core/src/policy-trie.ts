import type { PolicyRequest } from './policy.js';
import { applies, type CompiledRule, judges, type Resource, strictness } from './policy-rules.js';

/**
 * True when rule `a` decides over rule `b` among rules that judge the same resource: the stricter,
 * and of equally strict rules the first (the order a scan of every rule would keep).
 */
export function outranks(a: CompiledRule, b: CompiledRule | undefined): boolean {
  if (b === undefined) return true;
  const stricter = strictness[a.rule.decision] - strictness[b.rule.decision];
  return stricter > 0 || (stricter === 0 && a.index < b.index);
}

/**
 * The first of `ranked` (rules in rank order) that applies to `request` and outranks `best`, else
 * `best`: with no conditions on who calls, that is the first rule or none.
 */
export function firstApplying(
  ranked: readonly CompiledRule[],
  request: PolicyRequest,
  best: CompiledRule | undefined,
): CompiledRule | undefined {
  for (const rule of ranked) {
    if (!outranks(rule, best)) return best;
    if (applies(rule, request)) return rule;
  }
  return best;
}

/** Sorts rules so the one that would decide comes first. */
export function byRank(a: CompiledRule, b: CompiledRule): number {
  return outranks(a, b) ? -1 : outranks(b, a) ? 1 : 0;
}

interface Node {
  children?: Map<string, Node>;
  /** The rules whose literal keys end at this node, the one that would decide first. */
  rules?: CompiledRule[];
}

/**
 * Rules filed under a sequence of literal keys (a glob's leading path segments, a host pattern's
 * trailing labels, a command pattern's fixed tokens). A lookup walks a resource's own keys and
 * visits every rule filed along the way: the rules whose literal keys are a prefix of the
 * resource's, which are the only ones that can match it. Which of them do is for each rule's own
 * matcher to say (`judges`); the trie only never leaves out a rule that could.
 */
export class KeyTrie {
  readonly #root: Node = {};

  /** True when a node's rules were filed out of rank order: only then has {@link KeyTrie.seal} work to do. */
  #unsorted = false;

  /**
   * Files `rule` under the first `length` of `keys` (all of them by default; call
   * {@link KeyTrie.seal} once every rule is filed).
   */
  add(keys: readonly string[], rule: CompiledRule, length = keys.length): void {
    let node = this.#root;
    for (let depth = 0; depth < length; depth++) {
      const key = keys[depth]!;
      node.children ??= new Map();
      let child = node.children.get(key);
      if (child === undefined) {
        child = {};
        node.children.set(key, child);
      }
      node = child;
    }
    if (node.rules === undefined) node.rules = [rule];
    else {
      if (!this.#unsorted && byRank(node.rules[node.rules.length - 1]!, rule) > 0) this.#unsorted = true;
      node.rules.push(rule);
    }
  }

  /** Puts each node's rules in rank order, once every rule is filed and before any lookup. */
  seal(): void {
    if (!this.#unsorted) return;
    this.#unsorted = false;
    const pending = [this.#root];
    for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
      node.rules?.sort(byRank);
      for (const child of node.children?.values() ?? []) pending.push(child);
    }
  }

  /**
   * The rule that outranks `best` and every other rule filed along `keys` that applies to
   * `request` and judges `resource`, or `best` when none does. Each node's rules are tried in rank order and only until the
   * first that matches, and a node none of whose rules can outrank the best so far is skipped.
   */
  best(
    keys: readonly string[],
    request: PolicyRequest,
    resource: Resource,
    best: CompiledRule | undefined,
  ): CompiledRule | undefined {
    let node: Node | undefined = this.#root;
    for (let depth = 0; node !== undefined; depth++) {
      if (node.rules !== undefined && outranks(node.rules[0]!, best)) {
        for (const rule of node.rules) {
          if (!outranks(rule, best)) break;
          if (judges(rule, resource) && applies(rule, request)) {
            best = rule;
            break;
          }
        }
      }
      if (depth === keys.length) break;
      node = node.children?.get(keys[depth]!);
    }
    return best;
  }
}
