import { ToolgateError } from './errors.js';
import type { JsonValue } from './json.js';

/** The default of `maxParameterChars`: 1 MiB (1,048,576 characters) of a call's parameters as JSON text. */
export const defaultMaxParameterChars = 1024 * 1024;

/**
 * What the ledger keeps of parameters refused for their size: how long their JSON text was and
 * its SHA-256 (of the UTF-8 bytes, hex), never the parameters themselves.
 */
export async function omittedParameters(text: string): Promise<JsonValue> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  const sha256 = Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
  return { omitted: { chars: text.length, sha256 } };
}

/** The INVALID_PARAMETERS error for parameters whose JSON text is past the gate's bound. */
export function parametersTooLarge(tool: string, chars: number, maxChars: number): ToolgateError {
  return new ToolgateError(
    'INVALID_PARAMETERS',
    `the parameters of this call to tool "${tool}" are ${chars} characters of JSON, past the gate's ` +
      `maxParameterChars (${maxChars}); nothing was run. Call it again with smaller parameters ` +
      '(pass large data by reference, such as a path or a URL)',
  );
}
