import picomatch from 'picomatch';
import { CapabilityViolation, ToolgateError } from '../errors.js';

/**
 * Which tools one agent may call: the first station of every call, checked before anything else
 * about it (no resolver is touched for a tool outside the grant). Two kinds ship with core: exact
 * names ({@link exactGrant}, a manifest's `tools`) and glob patterns ({@link patternGrant}, the
 * gateway's clients). {@link Grant.narrow} derives a grant for a subagent: it can only narrow.
 */
export interface Grant {
  /** The agent the grant is for, as recorded and named in errors. */
  readonly agent: string;
  /** What is granted, as written (names or patterns), for errors and records. */
  readonly granted: readonly string[];
  /**
   * The gateway client whose calls this grant admits (policy's `clients:` rules match it); kept by
   * every grant {@link Grant.narrow} derives. Absent outside a gateway.
   */
  readonly client?: string;
  /**
   * The agent's path when it was narrowed from another: its ancestors' names and its own, joined by
   * `/` (`lead/critic`); policy's `agents:` rules match it. Absent for a root agent (its name is its path).
   */
  readonly agentPath?: string;
  /** True when the grant lets the agent call a tool of exactly this name. */
  allows(tool: string): boolean;
  /**
   * A grant of `tools` (exact names) for `agent`, each of them allowed by this grant; a tool this
   * grant does not allow is CAPABILITY_VIOLATION. Never widens.
   */
  narrow(tools: readonly string[], agent: string): Grant;
  /** The error for a call of a tool outside the grant. Default {@link CapabilityViolation}. */
  refusal?(tool: string): ToolgateError;
}

/** Who else a grant speaks for: the gateway client whose calls it admits, the agent's lineage. */
export interface GrantOptions {
  /** The gateway client (see {@link Grant.client}). */
  client?: string;
  /** The agent's path (see {@link Grant.agentPath}). */
  agentPath?: string;
}

/** The path of `child` narrowed from the agent at `parentPath`: `lead` + `critic` → `lead/critic` (`lead/sub` stays). */
export function childPath(parentPath: string, child: string): string {
  return child.startsWith(`${parentPath}/`) ? child : `${parentPath}/${child}`;
}

function optionsFields(options: GrantOptions): { client?: string; agentPath?: string } {
  return {
    ...(options.client === undefined ? {} : { client: options.client }),
    ...(options.agentPath === undefined ? {} : { agentPath: options.agentPath }),
  };
}

function childOptions(options: GrantOptions, agent: string, child: string): GrantOptions {
  return { ...options, agentPath: childPath(options.agentPath ?? agent, child) };
}

/** A grant of exactly these tool names (a manifest's `tools`). */
export function exactGrant(agent: string, tools: readonly string[], options: GrantOptions = {}): Grant {
  const names = new Set(tools);
  const granted = Object.freeze([...names]);
  const grant: Grant = {
    agent,
    granted,
    ...optionsFields(options),
    allows: (tool) => names.has(tool),
    narrow: (subset, name) =>
      exactGrant(name, narrowed(grant, subset, name), childOptions(options, agent, name)),
  };
  return grant;
}

/**
 * A grant of the tool names matching any of `patterns`: globs such as `fs__read_*`, `search__*`, or
 * an exact name. `*` never crosses a `/` (tool names hold none); braces and extglobs are off, so a
 * pattern means what it shows.
 */
export function patternGrant(agent: string, patterns: readonly string[], options: GrantOptions = {}): Grant {
  const tests = patterns.map((pattern) => picomatch(pattern, { nobrace: true, noextglob: true }));
  const allows = (tool: string) => tests.some((test) => test(tool));
  const granted = Object.freeze([...patterns]);
  const grant: Grant = {
    agent,
    granted,
    ...optionsFields(options),
    allows,
    narrow: (subset, name) =>
      exactGrant(name, narrowed(grant, subset, name), childOptions(options, agent, name)),
  };
  return grant;
}

/**
 * The grant station: returns the tool's name when `grant` allows it, else throws the grant's
 * refusal (CAPABILITY_VIOLATION by default). A name that is not a string is never granted.
 */
export function checkGrant(grant: Grant, tool: unknown): string {
  if (typeof tool === 'string' && grant.allows(tool)) return tool;
  const name = typeof tool === 'string' ? tool : String(tool);
  throw grant.refusal?.(name) ?? new CapabilityViolation(grant.agent, name, grant.granted);
}

/** The tools of a grant derived from `parent` for `child`: `subset`, refused where it widens. */
function narrowed(parent: Grant, subset: readonly string[], child: string): string[] {
  const { granted, allows } = parent;
  if (!Array.isArray(subset) || subset.some((tool) => typeof tool !== 'string')) {
    throw new ToolgateError(
      'INVALID_DEFINITION',
      `cannot derive agent "${child}" from agent "${parent.agent}": tools must be an array of tool names`,
    );
  }
  const wider = subset.filter((tool) => !allows(tool));
  if (wider.length > 0) {
    const shown = granted.length === 0 ? 'none' : granted.map((tool) => `"${tool}"`).join(', ');
    throw new ToolgateError(
      'CAPABILITY_VIOLATION',
      `agent "${parent.agent}" cannot give derived agent "${child}" tools it is not granted: ` +
        `${[...new Set(wider)].map((tool) => JSON.stringify(tool)).join(', ')} (granted: ${shown}); ` +
        "a derived agent can only narrow its parent's grant",
    );
  }
  return [...new Set(subset)];
}
