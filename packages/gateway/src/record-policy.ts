import { type Policy, type PolicyDocument, RulePolicy } from '@toolgate/core';
import type { LedgerRecorder } from '@toolgate/ledger';

/**
 * Records the config's policy as `policy.recorded` (its digest and document), at start and at each
 * reload, so that `toolgate-ledger verify --decisions` re-judges the gateway's calls by the policy
 * in force when they were made (with its layers, when `policy:` is a list of them, so a verdict's
 * layer and rule judge again). A policy given as code, without a document, cannot be recorded.
 */
export async function recordConfigPolicy(recorder: LedgerRecorder, policy: Policy): Promise<void> {
  const document = (policy as { document?: PolicyDocument }).document;
  const layers = policy instanceof RulePolicy ? policy.layers : undefined;
  if (document !== undefined) await recorder.recordPolicy(document, layers ? { layers } : {});
}
