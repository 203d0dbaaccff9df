import type { ToolResolver } from '../resolver.js';
import type { Tool, ToolDescription } from '../tool.js';

/** Where a granted tool lives: in this process, or behind a resolver. */
export type ResolvedTool =
  | { readonly where: 'in-process'; readonly tool: Tool; readonly description: ToolDescription }
  | { readonly where: 'resolver'; readonly resolver: ToolResolver; readonly description: ToolDescription };

/** What the resolve station looks tools up in: a {@link ToolRegistry}. */
export interface ToolLookup {
  /** The in-process tool of this name, resolved, without touching the resolver. */
  resolveInProcess(name: string): ResolvedTool | undefined;
  /** Finds where a tool lives (in-process first, then the resolver), or throws UNKNOWN_TOOL. */
  resolve(name: string): Promise<ResolvedTool>;
}

/**
 * The resolve station: where a granted tool lives. Synchronous for an in-process tool (no promise,
 * no resolver touched); otherwise the registry asks its resolver, and a tool nobody serves is
 * UNKNOWN_TOOL.
 */
export function resolveTool(lookup: ToolLookup, name: string): ResolvedTool | Promise<ResolvedTool> {
  return lookup.resolveInProcess(name) ?? lookup.resolve(name);
}
