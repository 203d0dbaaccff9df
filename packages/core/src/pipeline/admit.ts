import type { JsonObject } from '../json.js';
import { checkGrant, type Grant } from './grant.js';
import { type ResolvedTool, resolveTool, type ToolLookup } from './resolve.js';
import { validate } from './validate.js';

/** A call past its first three stations: granted, found, and its parameters valid. */
export interface Admitted {
  tool: string;
  resolved: ResolvedTool;
  parameters: JsonObject;
}

/**
 * The grant, resolve and validate stations in order: the grant before anything else (no resolver
 * is touched for a tool outside it), then where the tool lives, then its parameters. Synchronous
 * for an in-process tool. Both {@link ToolGate} and `ToolRegistry.call` start a call here.
 */
export function admit(
  lookup: ToolLookup,
  grant: Grant,
  name: unknown,
  parameters: unknown,
): Admitted | Promise<Admitted> {
  const tool = checkGrant(grant, name);
  const resolved = resolveTool(lookup, tool);
  if (resolved instanceof Promise)
    return resolved.then((found) => ({ tool, resolved: found, parameters: validate(found, parameters) }));
  return { tool, resolved, parameters: validate(resolved, parameters) };
}
