import picomatch from 'picomatch';
import type { Decision, PolicyRule, PolicySubject } from './policy.js';

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
  | { readonly kind: 'none' }
  | { readonly kind: 'unknown' };

/** A rule with its patterns compiled once. */
export interface CompiledRule {
  readonly index: number;
  readonly rule: PolicyRule;
  readonly tool: (name: string) => boolean;
  /** True when the rule constrains paths, commands or hosts. */
  readonly constrained: boolean;
  readonly path?: (path: string) => boolean;
  readonly host?: (host: string) => boolean;
  readonly commands?: readonly (readonly string[])[];
}

/** Compiles a rule's globs and command patterns. */
export function compileRule(rule: PolicyRule, index: number): CompiledRule {
  return {
    index,
    rule,
    tool: rule.tools ? picomatch([...rule.tools], { dot: true }) : () => true,
    constrained: rule.paths !== undefined || rule.commands !== undefined || rule.hosts !== undefined,
    ...(rule.paths ? { path: picomatch([...rule.paths], { dot: true }) } : {}),
    ...(rule.hosts
      ? {
          host: picomatch(
            rule.hosts.map((host) => host.toLowerCase()),
            { dot: true },
          ),
        }
      : {}),
    ...(rule.commands ? { commands: rule.commands.map(commandTokens) } : {}),
  };
}

/**
 * The resources of a call, each to be judged on its own; `[unknown]` when the subject is unknown
 * and `[none]` when the known subject touches nothing.
 */
export function resourcesOf(subject: PolicySubject | undefined): Resource[] {
  if (subject === undefined) return [{ kind: 'unknown' }];
  const resources: Resource[] = [
    ...(subject.paths ?? []).map((value): Resource => ({ kind: 'path', value })),
    ...(subject.commands ?? []).map((value): Resource => ({ kind: 'command', value })),
    ...(subject.hosts ?? []).map((value): Resource => ({ kind: 'host', value })),
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
    case 'command': {
      const argv = resource.value;
      return compiled.commands?.some((pattern) => commandMatches(pattern, argv)) ?? false;
    }
  }
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

/** A rule in words, for the reason of a verdict it decided. */
export function describeRule(rule: PolicyRule): string {
  const parts: string[] = [rule.decision];
  if (rule.tools) parts.push(`tools ${rule.tools.join(', ')}`);
  if (rule.paths) parts.push(`paths ${rule.paths.join(', ')}`);
  if (rule.commands) parts.push(`commands ${rule.commands.join(', ')}`);
  if (rule.hosts) parts.push(`hosts ${rule.hosts.join(', ')}`);
  return parts.join(' ');
}

/** A resource in words, e.g. `command "touch X"`. */
export function describeResource(resource: Resource): string {
  switch (resource.kind) {
    case 'path':
      return `path ${JSON.stringify(resource.value)}`;
    case 'host':
      return `host ${JSON.stringify(resource.value)}`;
    case 'command':
      return `command ${JSON.stringify(resource.value.join(' '))}`;
    default:
      return resource.kind;
  }
}
