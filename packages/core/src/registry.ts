import { runCall } from './call-run.js';
import { checkToolOutput, isToolOutput, type ToolOutput, toolResult } from './content.js';
import type { CallOptions, ToolContext } from './context.js';
import { CapabilityViolation, messageOf, ToolgateError } from './errors.js';
import { type JsonObject, type JsonValue, toJsonValue } from './json.js';
import type { Grant } from './manifest.js';
import { promptDescription } from './prompt-text.js';
import { remoteSchemaValidator } from './remote-schema.js';
import type { ToolResolver } from './resolver.js';
import type { Tool, ToolDescription } from './tool.js';

/** Where a granted tool lives: in this process, or behind a resolver. */
export type ResolvedTool =
  | { readonly where: 'in-process'; readonly tool: Tool; readonly description: ToolDescription }
  | { readonly where: 'resolver'; readonly resolver: ToolResolver; readonly description: ToolDescription };

/**
 * Holds the tools of a run and dispatches calls to them, after the grant check. Tools registered
 * here run in-process; anything else is asked of the resolver, if one is set.
 *
 * @example
 * const registry = new ToolRegistry().register(oracle);
 * await registry.call('fortune-teller', { name: 'fortune-teller', tools: ['oracle'] }, 'oracle', { seed: 'x' });
 */
export class ToolRegistry {
  readonly #tools = new Map<string, Tool>();
  readonly #resolved = new Map<string, ResolvedTool>();
  #resolver: ToolResolver | undefined;

  /** Adds a tool. A second tool of the same name is an error, never a silent overwrite. */
  register(tool: Tool): this {
    if (this.#tools.has(tool.name)) {
      throw new ToolgateError(
        'INVALID_DEFINITION',
        `a tool named "${tool.name}" is already registered; give the new tool another name`,
      );
    }
    this.#tools.set(tool.name, tool);
    this.#resolved.set(tool.name, { where: 'in-process', tool, description: describeTool(tool) });
    return this;
  }

  /** Sets (or, with undefined, removes) the resolver for tools that live elsewhere. */
  setResolver(resolver: ToolResolver | undefined): this {
    this.#resolver = resolver;
    return this;
  }

  /** The in-process tool of exactly this name. */
  get(name: string): Tool | undefined {
    return this.#tools.get(name);
  }

  /** The names of the in-process tools. */
  names(): string[] {
    return [...this.#tools.keys()];
  }

  /** True when a tool of exactly this name is in-process or served by the resolver. */
  async has(name: string): Promise<boolean> {
    return this.#tools.has(name) || ((await this.#resolver?.has(name)) ?? false);
  }

  /**
   * The description of each named tool that exists, in the order given; in-process descriptions
   * first, the resolver's otherwise, so a prompt reads the same whichever transport serves a tool.
   * Every description, and every `description` and `title` in a schema, is cleaned for a prompt
   * (control characters and escape sequences removed, line breaks made spaces, length capped; see
   * {@link promptText}).
   */
  async descriptions(names: readonly string[]): Promise<ToolDescription[]> {
    const found = await Promise.all(names.map((name) => this.#describe(name)));
    return found.filter((description) => description !== undefined);
  }

  async #describe(name: string): Promise<ToolDescription | undefined> {
    const tool = this.#tools.get(name);
    if (tool) return promptDescription(describeTool(tool));
    const resolver = this.#resolver;
    const described = resolver && (await resolver.has(name)) ? await resolver.describe(name) : undefined;
    return described && promptDescription(described);
  }

  /**
   * One line per known tool, `- name: description`; unknown names are skipped. Descriptions are
   * cleaned as in {@link descriptions}, so no description can add a line of its own.
   */
  async describe(names: readonly string[]): Promise<string> {
    const found = await this.descriptions(names);
    return found.map((tool) => `- ${tool.name}: ${tool.description}`).join('\n');
  }

  /**
   * Throws {@link CapabilityViolation} unless `tool` is, exactly, one of the grant's tools. Runs
   * before anything else about the call, and touches no resolver.
   */
  authorize(grant: Grant, tool: unknown): asserts tool is string {
    if (typeof tool !== 'string' || !grant.tools.includes(tool)) {
      throw new CapabilityViolation(grant.name, typeof tool === 'string' ? tool : String(tool), grant.tools);
    }
  }

  /** The in-process tool of this name, resolved, without touching the resolver. */
  resolveInProcess(name: string): ResolvedTool | undefined {
    return this.#resolved.get(name);
  }

  /** Finds where a tool lives (in-process first, then the resolver), or throws UNKNOWN_TOOL. */
  async resolve(name: string): Promise<ResolvedTool> {
    const local = this.#resolved.get(name);
    if (local) return local;
    const resolver = this.#resolver;
    if (resolver && (await resolver.has(name))) {
      const description = await resolver.describe(name);
      if (description) return { where: 'resolver', resolver, description };
    }
    const where = resolver
      ? `registered in-process or served by ${resolver.servingSummary?.() ?? 'the attached resolver'}`
      : 'registered in-process, and no resolver is attached to serve it';
    throw new ToolgateError(
      'UNKNOWN_TOOL',
      `no tool named ${JSON.stringify(name)} is ${where}; register it, or attach the server that provides it`,
    );
  }

  /**
   * Calls a tool for an agent: the grant check, then in-process dispatch or the resolver. Raises
   * on every failure (a grant violation and an unknown tool are faults of the caller); the
   * agent-facing {@link AgentHandle} folds them into results instead. `options.signal` cancels the
   * call (CANCELLED) and the tool's own `timeoutMs` bounds it (TIMEOUT), as through the gate. A
   * tool that returned content parts gives its `toolResult(…)`, checked but not capped (caps are
   * the caller's).
   */
  async call(
    agent: string,
    manifest: Pick<Grant, 'tools'>,
    tool: string,
    parameters: unknown,
    options: RegistryCallOptions = {},
  ): Promise<JsonValue | ToolOutput> {
    this.authorize({ name: agent, tools: manifest.tools }, tool);
    const resolved = this.#resolved.get(tool) ?? (await this.resolve(tool));
    const timeoutMs =
      options.timeoutMs ??
      (resolved.where === 'in-process' ? resolved.tool.timeoutMs : undefined) ??
      Number.POSITIVE_INFINITY;
    const pending = runCall(resolved, validate(resolved, parameters), {
      signal: options.signal,
      onProgress: options.onProgress,
      callId: options.callId ?? crypto.randomUUID(),
      agent,
      timeoutMs,
    });
    const output = pending instanceof Promise ? await pending : pending;
    if (isToolOutput(output)) return toolResult(checkToolOutput(output, outputOf(tool)));
    return toJsonValue(output, () => outputOf(tool));
  }
}

/** What {@link ToolRegistry.call} may be given besides the call. */
export interface RegistryCallOptions extends CallOptions {
  /** The call's id, as its tool's context sees it. Default a random UUID. */
  callId?: string;
  /** The time budget in ms. Default the tool's own `timeoutMs`, else none. */
  timeoutMs?: number;
}

/**
 * Validates parameters against the resolved tool: its zod schema in-process; for a resolver's tool,
 * the JSON Schema it described (read back into zod, or by ajv with RE2 patterns; see
 * {@link remoteSchemaValidator}), so a bad call is refused here — before policy and the transport —
 * with the same message on every transport. A remote schema that cannot be used safely (too deep,
 * too large, a `$ref` cycle, a pattern RE2 cannot run) refuses the call: INVALID_DEFINITION.
 */
export function validate(resolved: ResolvedTool, parameters: unknown): JsonObject {
  if (resolved.where === 'in-process') return resolved.tool.parse(parameters) as JsonObject;
  const { name } = resolved.description;
  const value = toJsonValue(parameters ?? {}, `parameters of tool "${name}"`);
  const problems = remoteSchemaValidator(name, resolved.description.inputSchema)(value);
  if (problems !== undefined) {
    throw new ToolgateError(
      'INVALID_PARAMETERS',
      `invalid parameters for tool "${name}": ${problems}; call it again with parameters that match its schema`,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ToolgateError(
      'INVALID_PARAMETERS',
      `invalid parameters for tool "${name}": (root): expected an object; ` +
        'call it again with an object of named parameters',
    );
  }
  return value;
}

/**
 * Runs a validated call with its context and returns its raw output, for the caller to check as
 * JSON. A sync in-process tool is answered without a promise; anything async returns one.
 */
export function dispatch(resolved: ResolvedTool, parameters: JsonObject, context: ToolContext): unknown {
  const name = resolved.description.name;
  if (resolved.where === 'resolver') return resolved.resolver.call(name, parameters, context);
  let output: unknown;
  try {
    output = resolved.tool.run(parameters, context);
  } catch (error) {
    throw toolFailure(name, error);
  }
  return output instanceof Promise
    ? output.catch((error) => Promise.reject(toolFailure(name, error)))
    : output;
}

/** How an output is named in an INVALID_OUTPUT message. */
export function outputOf(tool: string): string {
  return `the output of tool "${tool}"`;
}

function toolFailure(name: string, error: unknown): ToolgateError {
  if (ToolgateError.is(error)) return error;
  return new ToolgateError('TOOL_FAILED', `tool "${name}" failed: ${messageOf(error)}`, { cause: error });
}

/** The plain description of a tool, as a model or a remote client sees it. */
export function describeTool(tool: Tool): ToolDescription {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    parallelSafe: tool.parallelSafe,
  };
}
