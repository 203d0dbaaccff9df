import type { JsonObject } from '../json.js';
import type { PolicySubject } from '../policy.js';
import type { ResolvedTool } from './resolve.js';

/**
 * The subject station: what a validated call touches, for policy — the in-process tool's
 * `policySubject` hook, or the resolver's `subject` (from mappings the person who configured it
 * declared). Undefined when neither can tell: policy then fails closed on rules about paths,
 * commands and hosts.
 */
export function subjectOf(
  resolved: ResolvedTool,
  parameters: JsonObject,
): PolicySubject | undefined | Promise<PolicySubject | undefined> {
  if (resolved.where === 'in-process') return resolved.tool.policySubject?.(parameters);
  const { resolver, description } = resolved;
  return resolver.subject ? resolver.subject(description.name, parameters) : undefined;
}
