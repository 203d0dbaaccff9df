import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { PolicyVerdict } from '@toolgate/core';
import type { Gateway } from '../gateway.js';
import { rpcError } from './refusals.js';

/** The name a resource read or subscription has in a policy request (a rule's `tools` may name it). */
export const resourceReadTool = 'resources/read';

/**
 * Policy's verdict on `client` reading (or subscribing to) `uri`: the request's subject is the URI
 * itself (`{ resources: [uri] }`), so rules naming `resources` judge it, as do rules for every tool.
 * Allowed: undefined. Denied, or `ask` (the gateway asks no one about a resource read: a rule that
 * asks refuses it, never lets it through): the refusal to record and the error for the client.
 */
export function refusedByPolicy(
  gateway: Gateway,
  client: string,
  uri: string,
): { verdict: PolicyVerdict; error: Error & { code: number } } | undefined {
  const verdict = gateway.config.policy.decide({
    agent: client,
    client,
    tool: resourceReadTool,
    parameters: { uri },
    subject: { resources: [uri] },
  });
  if (verdict.decision === 'allow') return undefined;
  const rule = verdict.rule === undefined ? 'the policy default' : `policy rule ${verdict.rule}`;
  const why =
    verdict.decision === 'ask'
      ? `${rule} asks for approval, and the gateway asks no one about a resource read (make the rule allow or deny it)`
      : `${rule} denies it: ${verdict.reason}`;
  return {
    verdict,
    error: rpcError(
      ErrorCode.InvalidParams,
      `client "${client}" may not read resource ${JSON.stringify(uri)}: ${why} (policy of ${gateway.config.source})`,
    ),
  };
}
