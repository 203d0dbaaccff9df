import type { JsonObject } from '../json.js';
import type { PolicyRequest, PolicySubject } from '../policy.js';
import type { Admitted } from './admit.js';
import type { Grant } from './grant.js';
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

/** A call admitted, with the request policy judges. */
export interface Assessed {
  admitted: Admitted;
  request: PolicyRequest;
}

export function assessed(grant: Grant, admitted: Admitted): Assessed | Promise<Assessed> {
  const subject = subjectOf(admitted.resolved, admitted.parameters);
  if (subject instanceof Promise) return subject.then((found) => requestOf(grant, admitted, found));
  return requestOf(grant, admitted, subject);
}

function requestOf(grant: Grant, admitted: Admitted, subject: PolicySubject | undefined): Assessed {
  const request: PolicyRequest = {
    agent: grant.agent,
    tool: admitted.resolved.description.name,
    parameters: admitted.parameters,
  };
  if (grant.client !== undefined) request.client = grant.client;
  if (grant.agentPath !== undefined) request.agentPath = grant.agentPath;
  if (subject !== undefined) request.subject = subject;
  return { admitted, request };
}
