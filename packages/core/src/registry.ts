import { type ToolOutput, toolResult } from './content.js';
import type { CallOptions } from './context.js';
import { ToolgateError } from './errors.js';
import type { JsonValue } from './json.js';
import { admit } from './pipeline/admit.js';
import { capOutputOf, unlimitedOutput } from './pipeline/cap.js';
import { dispatch } from './pipeline/dispatch.js';
import { exactGrant } from './pipeline/grant.js';
import type { ResolvedTool } from './pipeline/resolve.js';
import { promptDescription } from './prompt-text.js';
import type { ToolResolver } from './resolver.js';
import type { Tool, ToolDescription } from './tool.js';

export type { ResolvedTool } from './pipeline/resolve.js';

/**
 * Holds the tools of a run: where a tool lives is looked up here (in-process tools registered
 * here, anything else asked of the resolver, if one is set). Calls run through the gate's pipeline;
 * {@link ToolRegistry.call} is a thin entry onto its grant, resolve, validate and dispatch stations.
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
   * `promptText`).
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
   * Calls a tool for an agent through the pipeline's grant, resolve, validate and dispatch stations
   * (no policy, no record: for those, a {@link ToolGate}). Raises
   * on every failure (a grant violation and an unknown tool are faults of the caller); the
   * agent-facing {@link AgentHandle} folds them into results instead. `options.signal` cancels the
   * call (CANCELLED) and the tool's own `timeoutMs` bounds it (TIMEOUT), as through the gate. A
   * tool that returned content parts gives its `toolResult(…)`, checked but not capped (caps are
   * the caller's).
   */
  async call(
    agent: string,
    manifest: { readonly tools: readonly string[] },
    tool: string,
    parameters: unknown,
    options: RegistryCallOptions = {},
  ): Promise<JsonValue | ToolOutput> {
    const pending = admit(this, exactGrant(agent, manifest.tools), tool, parameters);
    const admitted = pending instanceof Promise ? await pending : pending;
    const { resolved } = admitted;
    const dispatched = dispatch(resolved, admitted.parameters, {
      signal: options.signal,
      onProgress: options.onProgress,
      callId: options.callId ?? crypto.randomUUID(),
      agent,
      deadline: options.deadline,
      timeoutMs:
        options.timeoutMs ??
        (resolved.where === 'in-process' ? resolved.tool.timeoutMs : undefined) ??
        Number.POSITIVE_INFINITY,
    });
    const raw = dispatched instanceof Promise ? await dispatched : dispatched;
    const { output, content } = capOutputOf(raw, admitted.tool, unlimitedOutput);
    return content === undefined ? output : toolResult({ output, content });
  }
}

/** What {@link ToolRegistry.call} may be given besides the call. */
export interface RegistryCallOptions extends CallOptions {
  /** The call's id, as its tool's context sees it. Default a random UUID. */
  callId?: string;
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
