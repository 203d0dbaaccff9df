import type { JsonObject, JsonValue } from '@toolgate/core';
import { canonicalJson, sha256Hex } from '../chain/canonical.js';

/**
 * The digest an answer is bound to: `sha256:` and the SHA-256 of the call's recorded parameters in
 * canonical JSON (RFC 8785). A recorder writes it into every recorded answer as `parametersDigest`.
 */
export function parametersDigest(parameters: JsonValue): string {
  return `sha256:${sha256Hex(canonicalJson(parameters, 'the parameters'))}`;
}

/**
 * Why a recorded answer does not bind to the parameters its call recorded, or undefined when it
 * does: an answer that approved must carry `parametersDigest`, and any digest must match.
 */
export function answerBindingFault(
  answer: JsonObject | undefined,
  parameters: JsonObject,
): string | undefined {
  if (answer === undefined) return undefined;
  const digest = answer.parametersDigest;
  if (digest === undefined) {
    return answer.approved === true
      ? 'its approval carries no parametersDigest: it is not bound to the parameters it approved'
      : undefined;
  }
  const called = parametersDigest(parameters);
  return digest === called
    ? undefined
    : `its answer is bound to parameters with digest ${String(digest)}, but the call recorded parameters with digest ${called}: the answer was given for other parameters, or a record was edited`;
}
