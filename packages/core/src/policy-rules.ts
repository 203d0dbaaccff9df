import type { Decision, PolicyRequest, PolicyRule, PolicySubject } from './policy.js';

/** How strict each decision is: the strictest verdict wins. */
export const strictness: Record<Decision, number> = { allow: 0, ask: 1, deny: 2 };

/**
 * One thing a call touches, judged on its own: a path, a command, a host; `none` for a call whose
 * known subject touches nothing; `unknown` for a call whose subject toolgate could not compute.
 */
export type Resource =
  | { readonly kind: 'path'; readonly value: string }
  | { readonly kind: 'command'; readonly value: readonly string[] }
  | { readonly kind: 'host'; readonly value: string }
  | { readonly kind: 'resource'; readonly value: string }
  | { readonly kind: 'none' }
  | { readonly kind: 'unknown' };

/** A rule with its patterns compiled once, each when it is first needed (see `compileRule`). */
export interface CompiledRule {
  readonly index: number;
  readonly rule: PolicyRule;
  readonly tool: (name: string) => boolean;
  /** True when the rule constrains paths, commands or hosts. */
  readonly constrained: boolean;
  readonly path?: (path: string) => boolean;
  readonly host?: (host: string) => boolean;
  /** The rule's `resources` URI globs, as one test. */
  readonly resource?: ((uri: string) => boolean) | undefined;
  readonly commands?: readonly (readonly string[])[] | undefined;
  /**
   * The rule's conditions on the call itself (who makes it: `agents`, `clients`), checked after a
   * lookup found the rule; undefined when it has none.
   */
  readonly applies?: ((request: PolicyRequest) => boolean) | undefined;
}

/** True when `compiled`'s conditions on the call hold for `request` (a rule without any always applies). */
export function applies(compiled: CompiledRule, request: PolicyRequest): boolean {
  return compiled.applies === undefined || compiled.applies(request);
}

/** What a call with no subject touches: one resource nobody can tell (made once, never changed). */
const unknownResources: readonly Resource[] = Object.freeze([Object.freeze({ kind: 'unknown' as const })]);

/**
 * The resources of a call, each to be judged on its own; `[unknown]` when the subject is unknown
 * and `[none]` when the known subject touches nothing.
 */
export function resourcesOf(subject: PolicySubject | undefined): readonly Resource[] {
  if (subject === undefined) return unknownResources;
  const resources: Resource[] = [
    ...(subject.paths ?? []).map((value): Resource => ({ kind: 'path', value })),
    ...(subject.commands ?? []).map((value): Resource => ({ kind: 'command', value })),
    ...(subject.hosts ?? []).map((value): Resource => ({ kind: 'host', value })),
    ...(subject.resources ?? []).map((value): Resource => ({ kind: 'resource', value })),
  ];
  return resources.length > 0 ? resources : [{ kind: 'none' }];
}

/**
 * True when `compiled` judges `resource`. A rule without path, command or host conditions judges
 * every resource of a tool it names. A rule with them judges only resources of a kind it
 * constrains, and only when its patterns cover the resource; it never judges `none`. An `unknown`
 * resource is judged by such a rule only when it denies: a rule about what a call touches never
 * lets a call through because toolgate could not tell what it touches.
 */
export function judges(compiled: CompiledRule, resource: Resource): boolean {
  if (!compiled.constrained) return true;
  switch (resource.kind) {
    case 'unknown':
      return compiled.rule.decision === 'deny';
    case 'none':
      return false;
    case 'path':
      return compiled.path?.(resource.value) ?? false;
    case 'host':
      return compiled.host?.(resource.value.toLowerCase()) ?? false;
    case 'resource':
      return compiled.resource?.(resource.value) ?? false;
    case 'command': {
      const argv = resource.value;
      const matches = compiled.rule.decision === 'deny' ? commandCouldMatch : commandMatches;
      return compiled.commands?.some((pattern) => matches(pattern, argv)) ?? false;
    }
  }
}

/** Splits a rule's command text into tokens on whitespace. */
export function commandTokens(command: string): string[] {
  // Words one space apart (what a rule is written as) split on that space: the same tokens, without the regex.
  return isSpacedOnce(command) ? command.split(' ') : command.trim().split(/\s+/);
}

/** True when `command`'s only whitespace is single spaces between words (any other space or non-ASCII: false). */
function isSpacedOnce(command: string): boolean {
  const last = command.length - 1;
  if (last < 0) return false;
  for (let index = 0; index <= last; index++) {
    const code = command.charCodeAt(index);
    if (code === 0x20) {
      if (index === 0 || index === last || command.charCodeAt(index + 1) === 0x20) return false;
    } else if (code < 0x21 || code > 0x7e) return false;
  }
  return true;
}

/**
 * True when `pattern` matches every command `argv` can be. A token known only when the command
 * runs (it starts with a NUL byte, which no rule holds) is matched by nothing, not even a final `*`:
 * a rule that allows or asks never lets through what toolgate could not read.
 */
function commandMatches(pattern: readonly string[], argv: readonly string[]): boolean {
  const open = pattern[pattern.length - 1] === '*';
  const fixed = open ? pattern.slice(0, -1) : pattern;
  if (open ? argv.length < fixed.length : argv.length !== fixed.length) return false;
  if (argv.some((token) => token.startsWith(laterToken))) return false;
  return fixed.every((token, index) => argv[index] === token);
}

/** Starts a command token that stands for words known only when the command runs (never typed in a rule). */
export const laterToken = '\u0000';
/** Starts a last token saying the command runs code toolgate cannot read: any command rule could match. */
export const codeToken = '\u0000code:';

/**
 * True when `pattern` matches `argv` for some value of its tokens known only when it runs (each
 * stands for any words), or whatever it runs (a code token), with a path-qualified program matched
 * by its basename: a rule that denies commands applies to a command it cannot rule out.
 */
function commandCouldMatch(pattern: readonly string[], argv: readonly string[]): boolean {
  if (argv.some((token) => token.startsWith(codeToken))) return true;
  // A rule denying `rm …` denies the same program named by a path too (`/bin/rm`, `./rm`).
  const program = argv[0] ?? '';
  const named = pattern[0] !== undefined && !pattern[0].includes('/') && program.includes('/');
  if (named) argv = [program.slice(program.lastIndexOf('/') + 1), ...argv.slice(1)];
  if (!argv.some((token) => token.startsWith(laterToken))) return commandMatches(pattern, argv);
  const open = pattern[pattern.length - 1] === '*';
  const fixed = open ? pattern.slice(0, -1) : pattern;
  const failed = new Set<number>();
  const from = (at: number, index: number): boolean => {
    if (index === argv.length) return at === fixed.length;
    const key = at * (argv.length + 1) + index;
    if (failed.has(key)) return false;
    const token = argv[index]!;
    const found = token.startsWith(laterToken)
      ? from(at, index + 1) || (at < fixed.length ? from(at + 1, index) : open)
      : at === fixed.length
        ? open
        : token === fixed[at] && from(at + 1, index + 1);
    if (!found) failed.add(key);
    return found;
  };
  return from(0, 0);
}

/** A rule in words, for the reason of a verdict it decided. */
export function describeRule(rule: PolicyRule): string {
  const parts: string[] = [rule.decision];
  if (rule.tools) parts.push(`tools ${rule.tools.join(', ')}`);
  if (rule.agents) parts.push(`agents ${rule.agents.join(', ')}`);
  if (rule.clients) parts.push(`clients ${rule.clients.join(', ')}`);
  if (rule.where) parts.push(`where ${JSON.stringify(rule.where)}`);
  if (rule.paths) parts.push(`paths ${rule.paths.join(', ')}`);
  if (rule.commands) parts.push(`commands ${rule.commands.join(', ')}`);
  if (rule.hosts) parts.push(`hosts ${rule.hosts.join(', ')}`);
  if (rule.resources) parts.push(`resources ${rule.resources.join(', ')}`);
  return parts.join(' ');
}

/** A resource in words, e.g. `command "touch X"`. */
export function describeResource(resource: Resource): string {
  switch (resource.kind) {
    case 'path':
      return `path ${JSON.stringify(resource.value)}`;
    case 'host':
      return `host ${JSON.stringify(resource.value)}`;
    case 'resource':
      return `resource ${JSON.stringify(resource.value)}`;
    case 'command':
      return `command ${JSON.stringify(resource.value.map(readableToken).join(' '))}`;
    default:
      return resource.kind;
  }
}

/** A token known only when the command runs, as a person reads it: `‹glob *.ts›`. */
function readableToken(token: string): string {
  if (!token.startsWith(laterToken)) return token;
  const colon = token.indexOf(':');
  return colon < 0 ? `‹${token.slice(1)}›` : `‹${token.slice(1, colon)} ${token.slice(colon + 1)}›`;
}
