import type { JsonObject, JsonValue, PolicyDocument } from '@toolgate/core';
import { canonicalJson, sha256Hex } from '../chain/canonical.js';

/** The kind of the record that holds the policy a run decides by: its digest and, usually, its text. */
export const policyRecordedKind = 'policy.recorded';

/** The digest of a policy document: `sha256:` and the SHA-256 of its canonical JSON (RFC 8785). */
export function policyDigest(document: PolicyDocument): string {
  return `sha256:${sha256Hex(canonicalJson(document, 'the policy document'))}`;
}

/** Where each layer's rules start in a layered policy's rules (core's `RulePolicy.layers`). */
export interface PolicyLayers {
  readonly spans: readonly { readonly name: string; readonly start: number }[];
  readonly defaultLayer?: string;
}

/** What {@link policyRecordPayload} (and `LedgerRecorder.recordPolicy`) take beside the document. */
export interface PolicyRecordOptions {
  /** Keep only the digest in the ledger; the document is handed over beside it. */
  readonly digestOnly?: boolean;
  /**
   * The layers of a layered policy (`layeredPolicy(…).layers`), whose verdicts name a layer and a
   * rule's index within it: recorded so those verdicts can be judged again.
   */
  readonly layers?: PolicyLayers | undefined;
}

/**
 * The payload of a `policy.recorded` record: the document's digest and, unless `digestOnly`, the
 * document itself (then whoever verifies the decisions is handed the document beside the ledger),
 * and the layers of a layered policy.
 */
export function policyRecordPayload(document: PolicyDocument, options: PolicyRecordOptions = {}): JsonObject {
  const digest = policyDigest(document);
  const layers = options.layers && {
    layers: {
      spans: options.layers.spans.map(({ name, start }) => ({ name, start })),
      ...(options.layers.defaultLayer === undefined ? {} : { defaultLayer: options.layers.defaultLayer }),
    },
  };
  return {
    digest,
    ...(options.digestOnly ? {} : { document: document as unknown as JsonValue }),
    ...layers,
  };
}
