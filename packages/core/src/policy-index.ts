import type { PolicyRequest, PolicyRule } from './policy.js';
import { compileRule, GlobCache } from './policy-compile.js';
import type { CompiledRule, Resource } from './policy-rules.js';
import { ToolRules } from './policy-tool-rules.js';

/** A tool name made only of characters no glob gives a meaning to (not starting with `.`). */
const plainTool = /^[\w:-][\w:.-]*$/;
/** The characters a tool glob's literal prefix is made of. */
const prefixCharacter = /[\w:-]/;

/** What the rules say about one resource of a call: the rule that decides, if any, and whether one was skipped. */
export interface Judgement {
  /** The strictest rule that judges the resource, the first of equally strict ones. */
  decided: CompiledRule | undefined;
  /** True when the subject is unknown and a rule on paths, commands or hosts that allows or asks was set aside. */
  skipped: boolean;
}

/** How many tool names' lookups a policy remembers before it starts over (a bound, not a need). */
const rememberedTools = 1024;

/**
 * A policy's rules indexed so one decide costs about the same with 10,000 rules as with one: by tool
 * (exact names in a map, globs by their literal prefix, rules for every tool apart), then within a
 * tool by what they judge (see {@link ToolRules}). A lookup only narrows: every rule it returns is
 * still judged by its own matcher, so the verdict and its reason are those of a scan of every rule.
 */
export class PolicyIndex {
  readonly rules: readonly CompiledRule[];
  readonly #everyTool: ToolRules;
  readonly #byName = new Map<string, ToolRules>();
  /** Tool globs by literal prefix: each with its matcher and its rules. */
  readonly #byPrefix = new Map<string, { matches: (tool: string) => boolean; rules: ToolRules }[]>();
  readonly #prefixLengths: number[];
  readonly #globs = new GlobCache();
  readonly #remembered = new Map<string, readonly ToolRules[]>();

  readonly #scanBelow: number | undefined;

  /**
   * Indexes `rules`. `scanBelow` (for tests of the lookups): a tool with fewer rules on paths,
   * commands or hosts than this has them scanned, as a lookup costs more than a scan of a few.
   */
  constructor(rules: readonly PolicyRule[], scanBelow?: number) {
    this.#scanBelow = scanBelow;
    this.#everyTool = new ToolRules(scanBelow);
    this.rules = rules.map((rule, index) => compileRule(rule, index, this.#globs));
    const byGlob = new Map<string, ToolRules>();
    for (const compiled of this.rules) {
      if (compiled.rule.tools === undefined) {
        this.#everyTool.add(compiled);
        continue;
      }
      for (const pattern of compiled.rule.tools) {
        // A pattern met before is in one of the maps already: only a new one is told plain or glob.
        let toolRules = this.#byName.get(pattern) ?? byGlob.get(pattern);
        if (toolRules === undefined) {
          toolRules = new ToolRules(this.#scanBelow);
          if (plainTool.test(pattern)) this.#byName.set(pattern, toolRules);
          else {
            byGlob.set(pattern, toolRules);
            this.#fileGlob(pattern, toolRules);
          }
        }
        toolRules.add(compiled);
      }
    }
    this.#prefixLengths = [...new Set([...this.#byPrefix.keys()].map((prefix) => prefix.length))].sort(
      (a, b) => a - b,
    );
  }

  /** The rule that decides `resource` of `request`, and whether an unknown subject set a rule aside. */
  judge(request: PolicyRequest, resource: Resource): Judgement {
    let decided: CompiledRule | undefined;
    let skipped = false;
    for (const toolRules of this.#rulesOf(request.tool)) {
      decided = toolRules.judge(request, resource, decided);
      if (resource.kind === 'unknown') skipped ||= toolRules.setsAside(request);
    }
    return { decided, skipped };
  }

  /**
   * False when no rule for `tool` (of any agent or client) has paths: then every path of a call of
   * `tool` is judged as a call that touches nothing is. True otherwise.
   */
  judgesPaths(tool: string): boolean {
    return this.#rulesOf(tool).some((toolRules) => toolRules.judgesPaths);
  }

  #fileGlob(pattern: string, rules: ToolRules): void {
    let length = 0;
    while (length < pattern.length && prefixCharacter.test(pattern[length]!)) length++;
    const prefix = pattern.slice(0, length);
    const filed = this.#byPrefix.get(prefix) ?? [];
    filed.push({ matches: this.#globs.any([pattern]), rules });
    this.#byPrefix.set(prefix, filed);
  }

  /** The rules whose tool patterns match `tool` (remembered for the next call of the same tool). */
  #rulesOf(tool: string): readonly ToolRules[] {
    const remembered = this.#remembered.get(tool);
    if (remembered !== undefined) return remembered;
    const found = [this.#everyTool];
    if (plainTool.test(tool)) {
      const named = this.#byName.get(tool);
      if (named !== undefined) found.push(named);
      for (const length of this.#prefixLengths) {
        if (length > tool.length) break;
        for (const glob of this.#byPrefix.get(tool.slice(0, length)) ?? [])
          if (glob.matches(tool)) found.push(glob.rules);
      }
    } else {
      // A name with characters a glob could mean something by: every pattern asked, by its matcher.
      for (const [name, named] of this.#byName) if (this.#globs.any([name])(tool)) found.push(named);
      for (const globs of this.#byPrefix.values())
        for (const glob of globs) if (glob.matches(tool)) found.push(glob.rules);
    }
    if (this.#remembered.size >= rememberedTools) this.#remembered.clear();
    this.#remembered.set(tool, found);
    return found;
  }
}
