import type { JsonObject, JsonValue, PolicyDocument } from '@toolgate/core';
import { canonicalJson, sha256Hex } from '../chain/canonical.js';

/** The kind of the record that holds the policy a run decides by: its digest and, usually, its text. */
export const policyRecordedKind = 'policy.recorded';

/** The digest of a policy document: `sha256:` and the SHA-256 of its canonical JSON (RFC 8785). */
export function policyDigest(document: PolicyDocument): string {
  return `sha256:${sha256Hex(canonicalJson(document, 'the policy document'))}`;
}

/**
 * The payload of a `policy.recorded` record: the document's digest and, unless `digestOnly`, the
 * document itself (then whoever verifies the decisions is handed the document beside the ledger).
 */
export function policyRecordPayload(
  document: PolicyDocument,
  options: { digestOnly?: boolean } = {},
): JsonObject {
  const digest = policyDigest(document);
  return options.digestOnly ? { digest } : { digest, document: document as unknown as JsonValue };
}
