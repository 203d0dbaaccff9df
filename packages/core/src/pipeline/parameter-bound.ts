import { messageOf, ToolgateError } from '../errors.js';
import { type JsonValue, jsonTextBound, toJsonValue } from '../json.js';

/** The default of `limits.parameterChars`: 1 MiB (1,048,576 characters) of a call's parameters as JSON text. */
export const defaultParameterChars = 1024 * 1024;

/**
 * The JSON text of parameters past `maxChars` characters (escaping counted), or undefined when they
 * are within it (always, for an infinite bound: nothing is serialised then).
 */
export function oversizedParameters(parameters: unknown, maxChars: number): string | undefined {
  if (!(maxChars < Number.POSITIVE_INFINITY)) return undefined;
  // plain JSON whose longest possible text is within the bound needs no serialising
  const bound = jsonTextBound(parameters ?? {});
  if (bound >= 0 && bound <= maxChars) return undefined;
  let value: JsonValue;
  try {
    value = toJsonValue(parameters ?? {});
  } catch (error) {
    value = { unrecordable: messageOf(error) };
  }
  const text = JSON.stringify(value);
  return text.length > maxChars ? text : undefined;
}

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
      `limits.parameterChars (${maxChars}); nothing was run. Call it again with smaller parameters ` +
      '(pass large data by reference, such as a path or a URL)',
  );
}

/** `limits.parameterChars` checked: a positive number of characters (Infinity for no bound). */
export function checkParameterChars(parameterChars: unknown): number {
  if (typeof parameterChars === 'number' && parameterChars > 0) return parameterChars;
  throw new ToolgateError(
    'INVALID_DEFINITION',
    `the gate option limits.parameterChars must be a positive number of characters (Infinity for no bound), not ${String(parameterChars)}`,
  );
}
