import type { PolicyRequest } from './policy.js';
import { hostKeys, pathKeys } from './policy-keys.js';
import { applies, type CompiledRule, codeToken, judges, laterToken, type Resource } from './policy-rules.js';
import { byRank, firstApplying, KeyTrie, outranks } from './policy-trie.js';

/** A path's segments when a lookup can walk them: no empty, `.` or `..` segment, no backslash (else scanned). */
function walkable(path: string): string[] | undefined {
  if (path.includes('\\')) return undefined;
  const segments = path.split('/');
  for (let index = 0; index < segments.length; index++) {
    const segment = segments[index]!;
    if (segment === '.' || segment === '..') return undefined;
    if (segment === '' && (index > 0 || segments.length === 1)) return undefined;
  }
  return segments;
}

/**
 * The rules of one tool pattern (or of every tool), indexed by what they judge (see
 * {@link ToolIndex}) when a call of the tool is first judged: a policy of thousands of tools
 * parses without building their indexes, and builds only those of the tools its calls use.
 */
export class ToolRules {
  readonly #scanBelow: number;
  #rules: CompiledRule[] | undefined;
  #index: ToolIndex | undefined;
  /** True when a rule of these has paths: only then can a path change a verdict of theirs. */
  judgesPaths = false;

  /** `scanBelow`: with fewer rules on paths, commands or hosts than this, they are scanned, not looked up. */
  constructor(scanBelow = 8) {
    this.#scanBelow = scanBelow;
  }

  /** Adds a rule (once; rules come in index order). */
  add(compiled: CompiledRule): void {
    this.#index = undefined;
    if (this.#rules === undefined) this.#rules = [compiled];
    else if (this.#rules[this.#rules.length - 1] !== compiled) this.#rules.push(compiled);
    if (compiled.rule.paths !== undefined) this.judgesPaths = true;
  }

  /** True when the call's subject is unknown and a rule of these that applies to it was set aside. */
  setsAside(request: PolicyRequest): boolean {
    return this.#indexed().setsAside(request);
  }

  /** The rule of these that decides `resource` of `request` if it outranks `best`, else `best`. */
  judge(
    request: PolicyRequest,
    resource: Resource,
    best: CompiledRule | undefined,
  ): CompiledRule | undefined {
    return this.#indexed().judge(request, resource, best);
  }

  #indexed(): ToolIndex {
    this.#index ??= new ToolIndex(this.#rules ?? none, this.#scanBelow);
    return this.#index;
  }
}

/**
 * The rules of one tool indexed by what they judge: the rules on no resource reduced to the one
 * that would decide, and path, host and command rules in tries keyed by their literal leading
 * parts. Conditions a rule adds are checked by its own matcher after the lookup (`judges`), so the
 * verdict is the one a scan of every rule gives.
 */
class ToolIndex {
  /** The rules on paths, commands or hosts, when they are few enough that a scan beats a lookup. */
  readonly #few: readonly CompiledRule[] | undefined;
  // The lists below start as the one shared empty list: a tool allocates only those it fills.
  /** Rules on no resource, in rank order: the first that applies to the call judges every resource. */
  readonly #unconstrained: readonly CompiledRule[];
  /** Rules on resources that deny, in rank order: they judge an unknown subject. */
  readonly #unknownDeny: readonly CompiledRule[];
  /** Rules on resources that allow or ask: an unknown subject sets them aside. */
  readonly #setAsideWhenUnknown: readonly CompiledRule[];
  /** Rules denying commands, in rank order: they judge a command that runs code toolgate cannot read. */
  #commandDeny: readonly CompiledRule[] = none;
  // Built only when the rules on paths, commands or hosts are many.
  #paths!: KeyTrie;
  #hosts!: KeyTrie;
  #commands!: KeyTrie;
  #pathRules!: CompiledRule[];
  #hostRules!: CompiledRule[];
  #resourceRules!: CompiledRule[];
  #denyCommandRules!: CompiledRule[];

  /** Indexes `rules` (in index order); with fewer rules on resources than `scanBelow`, they are scanned. */
  constructor(rules: readonly CompiledRule[], scanBelow: number) {
    // Each list made only when a rule goes in it: most tools of a big policy have one rule.
    let unconstrained: CompiledRule[] | undefined;
    let constrained: CompiledRule[] | undefined;
    let unknownDeny: CompiledRule[] | undefined;
    let setAside: CompiledRule[] | undefined;
    for (const compiled of rules) {
      if (!compiled.constrained) unconstrained = withRule(unconstrained, compiled);
      else {
        constrained = withRule(constrained, compiled);
        if (compiled.rule.decision === 'deny') unknownDeny = withRule(unknownDeny, compiled);
        else setAside = withRule(setAside, compiled);
      }
    }
    this.#unconstrained = ranked(unconstrained);
    this.#unknownDeny = ranked(unknownDeny);
    this.#setAsideWhenUnknown = setAside ?? none;
    if (constrained === undefined || constrained.length < scanBelow) {
      this.#few = constrained ?? none;
      return;
    }
    this.#paths = new KeyTrie();
    this.#hosts = new KeyTrie();
    this.#commands = new KeyTrie();
    this.#pathRules = [];
    this.#hostRules = [];
    this.#resourceRules = [];
    this.#denyCommandRules = [];
    for (const compiled of constrained) {
      const { paths, hosts, commands } = compiled.rule;
      if (paths !== undefined) {
        for (const glob of paths) this.#paths.add(pathKeys(glob), compiled);
        this.#pathRules.push(compiled);
      }
      if (hosts !== undefined) {
        for (const glob of hosts) this.#hosts.add(hostKeys(glob), compiled);
        this.#hostRules.push(compiled);
      }
      if (compiled.commands !== undefined)
        for (const tokens of compiled.commands)
          this.#commands.add(
            tokens,
            compiled,
            tokens[tokens.length - 1] === '*' ? tokens.length - 1 : tokens.length,
          );
      if (compiled.rule.resources) this.#resourceRules.push(compiled); // URIs: scanned, not indexed
      if (commands && compiled.rule.decision === 'deny') this.#denyCommandRules.push(compiled);
    }
    this.#commandDeny = ranked([...this.#denyCommandRules]);
    for (const trie of [this.#paths, this.#hosts, this.#commands]) trie.seal();
  }

  /** True when the call's subject is unknown and a rule of these that applies to it was set aside. */
  setsAside(request: PolicyRequest): boolean {
    return this.#setAsideWhenUnknown.some((compiled) => applies(compiled, request));
  }

  /** The rule of these that decides `resource` of `request` if it outranks `best`, else `best`. */
  judge(
    request: PolicyRequest,
    resource: Resource,
    best: CompiledRule | undefined,
  ): CompiledRule | undefined {
    best = firstApplying(this.#unconstrained, request, best);
    switch (resource.kind) {
      case 'none':
        return best;
      case 'unknown':
        return firstApplying(this.#unknownDeny, request, best);
    }
    if (this.#few !== undefined) return scan(this.#few, request, resource, best);
    switch (resource.kind) {
      case 'path': {
        const segments = walkable(resource.value);
        return segments === undefined
          ? scan(this.#pathRules, request, resource, best)
          : this.#paths.best(segments, request, resource, best);
      }
      case 'host': {
        const host = resource.value.toLowerCase();
        return host.includes('/') || host.includes('\\')
          ? scan(this.#hostRules, request, resource, best)
          : this.#hosts.best(host.split('.').reverse(), request, resource, best);
      }
      case 'resource':
        return scan(this.#resourceRules, request, resource, best);
      case 'command':
        return this.#judgeCommand(request, resource, best);
    }
  }

  #judgeCommand(
    request: PolicyRequest,
    resource: Resource & { kind: 'command' },
    best: CompiledRule | undefined,
  ): CompiledRule | undefined {
    const argv = resource.value;
    // A command running code toolgate cannot read could be anything: every rule denying commands applies.
    if (hasToken(argv, codeToken)) return firstApplying(this.#commandDeny, request, best);
    // Tokens known only when it runs could be any words: only rules that deny can judge it, each by its matcher.
    if (hasToken(argv, laterToken)) return scan(this.#denyCommandRules, request, resource, best);
    best = this.#commands.best(argv, request, resource, best);
    const program = argv[0] ?? '';
    // A rule denying `rm …` judges `/bin/rm …` too: walk the program's basename as well.
    if (program.includes('/'))
      best = this.#commands.best(
        [program.slice(program.lastIndexOf('/') + 1), ...argv.slice(1)],
        request,
        resource,
        best,
      );
    return best;
  }
}

/** The one empty list every unfilled list of every {@link ToolRules} shares (never changed). */
const none: readonly CompiledRule[] = Object.freeze([]);

/** `list` with `rule` pushed on it, a new list when there was none. */
function withRule(list: CompiledRule[] | undefined, rule: CompiledRule): CompiledRule[] {
  if (list === undefined) return [rule];
  list.push(rule);
  return list;
}

/** `rules` sorted in rank order, or the shared empty list. */
function ranked(rules: CompiledRule[] | undefined): readonly CompiledRule[] {
  return rules === undefined || rules.length === 0 ? none : rules.length === 1 ? rules : rules.sort(byRank);
}

function scan(
  rules: readonly CompiledRule[],
  request: PolicyRequest,
  resource: Resource,
  best: CompiledRule | undefined,
): CompiledRule | undefined {
  for (const compiled of rules)
    if (outranks(compiled, best) && judges(compiled, resource) && applies(compiled, request)) best = compiled;
  return best;
}

function hasToken(argv: readonly string[], start: string): boolean {
  for (const token of argv) if (token.startsWith(start)) return true;
  return false;
}
