import picomatch from 'picomatch';
import type { PolicyRequest, PolicyRule } from './policy.js';
import { resourceUriMatcher } from './policy-resource-uris.js';
import { type CompiledRule, commandTokens } from './policy-rules.js';
import { compileWhere } from './policy-where.js';

type Matcher = (value: string) => boolean;

/**
 * The globs of one policy, each compiled by picomatch once and only when a call first meets it: a
 * policy of 10,000 rules parses without compiling 10,000 globs, and rules sharing a glob share its
 * matcher.
 */
export class GlobCache {
  readonly #matchers = new Map<string, Matcher>();

  /** A matcher true when any of `globs` matches, compiled when it is first called. */
  any(globs: readonly string[]): Matcher {
    let compiled: Matcher | undefined;
    return (value) => {
      compiled ??= this.compile(globs);
      return compiled(value);
    };
  }

  /** A matcher true when any of `globs` matches, compiled now (each glob once per policy). */
  compile(globs: readonly string[]): Matcher {
    const matchers = globs.map((glob) => {
      let matcher = this.#matchers.get(glob);
      if (matcher === undefined) {
        matcher = picomatch(glob, { dot: true });
        this.#matchers.set(glob, matcher);
      }
      return matcher;
    });
    if (matchers.length === 1) return matchers[0]!;
    return (value) => {
      for (const matcher of matchers) if (matcher(value)) return true;
      return false;
    };
  }
}

/**
 * Compiles a rule: its conditions on the call now (a bad `where` is refused when the policy is
 * built), its globs through `globs` and its command patterns each when first needed.
 */
export function compileRule(rule: PolicyRule, index: number, globs = new GlobCache()): CompiledRule {
  return new LazyRule(rule, index, globs);
}

/**
 * A rule whose matchers are made when first called: one object a rule, the same shape for every
 * rule (lookups over thousands of rules stay monomorphic), and no function made for a rule of a
 * tool no call uses. A rule without `tools` matches every tool; without paths, hosts or resources
 * it matches none of them (`judges` asks only a rule that constrains them).
 */
class LazyRule implements CompiledRule {
  readonly index: number;
  readonly rule: PolicyRule;
  readonly constrained: boolean;
  readonly applies: ((request: PolicyRequest) => boolean) | undefined;
  readonly #globs: GlobCache;
  #tool: Matcher | undefined;
  #path: Matcher | undefined;
  #host: Matcher | undefined;
  #resource: Matcher | undefined;
  #commands: readonly (readonly string[])[] | undefined;

  constructor(rule: PolicyRule, index: number, globs: GlobCache) {
    const { paths, hosts, commands, resources } = rule;
    this.index = index;
    this.rule = rule;
    this.constrained =
      paths !== undefined || commands !== undefined || hosts !== undefined || resources !== undefined;
    this.applies = conditionsOf(rule, index, globs);
    this.#globs = globs;
  }

  tool(name: string): boolean {
    const { tools } = this.rule;
    if (tools === undefined) return true;
    this.#tool ??= this.#globs.compile(tools);
    return this.#tool(name);
  }

  path(path: string): boolean {
    const { paths } = this.rule;
    if (paths === undefined) return false;
    this.#path ??= this.#globs.compile(paths);
    return this.#path(path);
  }

  host(host: string): boolean {
    const { hosts } = this.rule;
    if (hosts === undefined) return false;
    this.#host ??= this.#globs.compile(hosts.map((glob) => glob.toLowerCase()));
    return this.#host(host);
  }

  resource(uri: string): boolean {
    const { resources } = this.rule;
    if (resources === undefined) return false;
    this.#resource ??= resourceUriMatcher(resources);
    return this.#resource(uri);
  }

  get commands(): readonly (readonly string[])[] | undefined {
    const { commands } = this.rule;
    if (commands === undefined) return undefined;
    this.#commands ??= commands.map(commandTokens);
    return this.#commands;
  }
}

/** A rule's conditions on the call (who calls, what its arguments are), as one test; undefined when it has none. */
function conditionsOf(
  rule: PolicyRule,
  index: number,
  globs: GlobCache,
): ((request: PolicyRequest) => boolean) | undefined {
  const { agents, clients, where } = rule;
  if (agents === undefined && clients === undefined && where === undefined) return undefined;
  const agent = agents ? globs.any(agents) : always;
  const client = clients ? globs.any(clients) : undefined;
  const argumentsMatch = where ? compileWhere(where, rule.decision === 'deny', `rules[${index}]`) : always;
  return (request) =>
    agent(request.agentPath ?? request.agent) &&
    (client === undefined || (request.client !== undefined && client(request.client))) &&
    argumentsMatch(request.parameters);
}

const always = () => true;
