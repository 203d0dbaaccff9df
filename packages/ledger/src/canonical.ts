import { hash } from 'node:crypto';
import { ToolgateError } from '@toolgate/core';
import canonicalize from 'canonicalize';

/**
 * The RFC 8785 canonical JSON text of a value: sorted keys, no whitespace, ECMAScript number
 * forms. Two values that mean the same JSON have the same text, so their hashes agree.
 *
 * @param what names the value in the error message, e.g. `the payload of event "tool.called"`.
 * @throws ToolgateError INVALID_EVENT when the value has no JSON form.
 */
export function canonicalJson(value: unknown, what = 'value'): string {
  let text: string | undefined;
  try {
    refuseNonJson(value, '$');
    text = canonicalize(value);
  } catch (error) {
    throw new ToolgateError(
      'INVALID_EVENT',
      `${what} is not JSON (${(error as Error).message}); pass plain JSON values`,
      { cause: error },
    );
  }
  if (text === undefined) {
    throw new ToolgateError('INVALID_EVENT', `${what} is not JSON (it is undefined); pass plain JSON values`);
  }
  return text;
}

/** Finds what canonicalize would let through silently: functions, symbols, Maps and Sets. */
function refuseNonJson(value: unknown, path: string, depth = 0): void {
  if (depth > 256) return; // a cycle, most likely: canonicalize names it
  if (typeof value === 'function' || typeof value === 'symbol') {
    throw new Error(`at ${path}: a ${typeof value} has no JSON form`);
  }
  if (typeof value !== 'object' || value === null) return;
  if (value instanceof Map || value instanceof Set) {
    throw new Error(`at ${path}: a ${value.constructor.name} has no JSON form`);
  }
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++)
      refuseNonJson(value[index], `${path}[${index}]`, depth + 1);
    return;
  }
  for (const key in value)
    refuseNonJson((value as Record<string, unknown>)[key], `${path}.${key}`, depth + 1);
}

/** The SHA-256 of a UTF-8 string, as 64 lower-case hex digits. */
export function sha256Hex(text: string): string {
  return hash('sha256', text, 'hex');
}

/**
 * The canonical JSON of a value freshly parsed from JSON text: JSON.stringify when every object's
 * keys already iterate in sorted order (the common case, and much cheaper), the canonicaliser
 * otherwise (integer-like keys iterate in numeric order, for one).
 */
export function canonicalText(value: unknown): string {
  return keysSorted(value) ? JSON.stringify(value) : canonicalJson(value);
}

function keysSorted(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (Array.isArray(value)) return value.every(keysSorted);
  let previous: string | undefined;
  for (const key in value) {
    if (previous !== undefined && !(previous < key)) return false;
    previous = key;
    if (!keysSorted((value as Record<string, unknown>)[key])) return false;
  }
  return true;
}
