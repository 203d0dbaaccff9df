import type { Policy, PolicyDocument } from '@toolgate/core';
import type { LedgerRecorder } from '@toolgate/ledger';

/**
 * Records the config's policy as `policy.recorded` (its digest and document), at start and at each
 * reload, so that `toolgate-ledger verify --decisions` re-judges the gateway's calls by the policy
 * in force when they were made. A policy given as code, without a document, cannot be recorded.
 */
export async function recordConfigPolicy(recorder: LedgerRecorder, policy: Policy): Promise<void> {
  const document = (policy as { document?: PolicyDocument }).document;
  if (document !== undefined) await recorder.recordPolicy(document);
}
