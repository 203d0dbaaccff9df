import picomatch from 'picomatch';
import type { JsonObject } from './json.js';

/** What policy says about a call. `ask` defers to an approver. */
export type Decision = 'allow' | 'deny' | 'ask';

const strictness: Record<Decision, number> = { allow: 0, ask: 1, deny: 2 };

/**
 * The canonical resources a call touches, as the tool itself resolved them: paths relative to the
 * workspace root after resolving `..` and symlinks (an escaping path is absolute), every command of
 * a compound shell line as argv tokens, and lower-cased host names.
 */
export interface PolicySubject {
  paths?: readonly string[];
  commands?: readonly (readonly string[])[];
  hosts?: readonly string[];
}

/**
 * One policy rule. A rule matches a call when its tool pattern matches and every condition it sets
 * matches. An `allow` condition must cover every resource of that kind the call touches (and there
 * must be at least one); a `deny` or `ask` condition matches when any resource is covered.
 */
export interface PolicyRule {
  /** Tool name patterns (globs such as `mcp__*`); omitted means every tool. */
  tools?: readonly string[];
  /** Path globs over workspace-relative resolved paths, e.g. `src/**`. */
  paths?: readonly string[];
  /** Commands as argv tokens, e.g. `npm test`; a final `*` token allows further arguments. */
  commands?: readonly string[];
  /** Host globs, e.g. `api.example.com`, `*.example.com`. */
  hosts?: readonly string[];
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
  tool: string;
  parameters: JsonObject;
  subject: PolicySubject;
}

/** Policy's answer, with the rule that decided (absent when the default decided). */
export interface PolicyVerdict {
  decision: Decision;
  rule?: number;
  reason: string;
}

interface CompiledRule {
  index: number;
  rule: PolicyRule;
  tool: (name: string) => boolean;
  path?: (path: string) => boolean;
  host?: (host: string) => boolean;
  commands?: readonly (readonly string[])[];
}

/**
 * Decides allow / deny / ask for a call. When several rules match, the strictest wins
 * (deny > ask > allow). Build one from data with {@link parsePolicy} or take a preset from
 * {@link policies}.
 *
 * @example
 * const policy = new Policy({ rules: [{ tools: ['read_file'], paths: ['src/**'], decision: 'allow' }] });
 */
export class Policy {
  readonly document: PolicyDocument;
  readonly #rules: CompiledRule[];
  readonly #fallback: PolicyVerdict;

  constructor(document: PolicyDocument) {
    this.document = document;
    this.#rules = document.rules.map((rule, index) => compileRule(rule, index));
    const decision = document.default ?? 'deny';
    this.#fallback = Object.freeze({ decision, reason: `no rule matched; the default is ${decision}` });
  }

  /** The verdict for one call. */
  decide(request: PolicyRequest): PolicyVerdict {
    let verdict: PolicyVerdict | undefined;
    for (const compiled of this.#rules) {
      if (!matches(compiled, request)) continue;
      if (verdict === undefined || strictness[compiled.rule.decision] > strictness[verdict.decision]) {
        verdict = {
          decision: compiled.rule.decision,
          rule: compiled.index,
          reason: compiled.rule.reason ?? `rule ${compiled.index} (${describeRule(compiled.rule)})`,
        };
      }
    }
    return verdict ?? this.#fallback;
  }
}

function compileRule(rule: PolicyRule, index: number): CompiledRule {
  const compiled: CompiledRule = {
    index,
    rule,
    tool: rule.tools ? picomatch([...rule.tools], { dot: true }) : () => true,
  };
  if (rule.paths) compiled.path = picomatch([...rule.paths], { dot: true });
  if (rule.hosts)
    compiled.host = picomatch(
      rule.hosts.map((host) => host.toLowerCase()),
      { dot: true },
    );
  if (rule.commands) compiled.commands = rule.commands.map(commandTokens);
  return compiled;
}

function matches(compiled: CompiledRule, request: PolicyRequest): boolean {
  if (!compiled.tool(request.tool)) return false;
  const everyItem = compiled.rule.decision === 'allow';
  const { subject } = request;
  if (compiled.path && !covers(subject.paths, compiled.path, everyItem)) return false;
  if (compiled.host && !covers(subject.hosts, compiled.host, everyItem)) return false;
  if (compiled.commands) {
    const patterns = compiled.commands;
    const match = (argv: readonly string[]) => patterns.some((pattern) => commandMatches(pattern, argv));
    if (!covers(subject.commands, match, everyItem)) return false;
  }
  return true;
}

function covers<T>(
  items: readonly T[] | undefined,
  match: (item: T) => boolean,
  everyItem: boolean,
): boolean {
  if (!items || items.length === 0) return false;
  return everyItem ? items.every(match) : items.some(match);
}

/** Splits a rule's command text into tokens on whitespace. */
function commandTokens(command: string): string[] {
  return command.trim().split(/\s+/);
}

function commandMatches(pattern: readonly string[], argv: readonly string[]): boolean {
  const open = pattern[pattern.length - 1] === '*';
  const fixed = open ? pattern.slice(0, -1) : pattern;
  if (open ? argv.length < fixed.length : argv.length !== fixed.length) return false;
  return fixed.every((token, index) => argv[index] === token);
}

function describeRule(rule: PolicyRule): string {
  const parts: string[] = [rule.decision];
  if (rule.tools) parts.push(`tools ${rule.tools.join(', ')}`);
  if (rule.paths) parts.push(`paths ${rule.paths.join(', ')}`);
  if (rule.commands) parts.push(`commands ${rule.commands.join(', ')}`);
  if (rule.hosts) parts.push(`hosts ${rule.hosts.join(', ')}`);
  return parts.join(' ');
}

/** The built-in tools that only read. */
const readTools = ['read_file', 'list_dir', 'glob', 'search_files', 'oracle'];

/** Ready-made policies. */
export const policies = {
  /** Allows every granted call. The grant is still the boundary. */
  allowAll: (): Policy => new Policy({ default: 'allow', rules: [] }),
  /** Allows the read-only built-ins; denies everything else. */
  readOnly: (): Policy =>
    new Policy({
      default: 'deny',
      rules: [{ tools: readTools, decision: 'allow', reason: 'reads are allowed' }],
    }),
  /** Allows reading and writing files; asks for everything else (shell, fetch, remote tools). */
  workspace: (): Policy =>
    new Policy({
      default: 'ask',
      rules: [{ tools: [...readTools, 'write_file'], decision: 'allow', reason: 'file access is allowed' }],
    }),
} as const;
