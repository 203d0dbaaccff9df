import * as crypto from 'node:crypto';
import { ToolgateError } from '@toolgate/core';
import { serializeCanonical } from './jcs.js';

/**
 * The RFC 8785 canonical JSON text of a value: sorted keys, no whitespace, ECMAScript number
 * forms. Two values that mean the same JSON have the same text, so their hashes agree.
 *
 * @param what names the value in the error message, e.g. `the payload of event "tool.called"`.
 * @throws ToolgateError INVALID_EVENT when the value has no JSON form.
 */
export function canonicalJson(value: unknown, what = 'value'): string {
  try {
    return serializeCanonical(value);
  } catch (error) {
    throw new ToolgateError(
      'INVALID_EVENT',
      `${what} is not JSON (${(error as Error).message}); pass plain JSON values`,
      { cause: error },
    );
  }
}

/** Node's one-shot hash (Node ≥ 20.12 / 21.7): no Hash object, no copy. */
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;

/** The SHA-256 of a UTF-8 string, as 64 lower-case hex digits. */
export const sha256Hex: (text: string) => string =
  typeof oneShot === 'function'
    ? (text) => oneShot('sha256', text, 'hex')
    : (text) => crypto.createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * The canonical JSON of a value freshly parsed from JSON text: JSON.stringify when every object's
 * keys already iterate in sorted order (the common case, and much cheaper), the canonicaliser
 * otherwise (integer-like keys iterate in numeric order, for one).
 */
export function canonicalText(value: unknown): string {
  return keysSorted(value) ? JSON.stringify(value) : canonicalJson(value);
}

/** True when every object in a parsed value iterates its keys in sorted order. */
export function keysSorted(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (Array.isArray(value)) {
    for (const item of value) if (!keysSorted(item)) return false;
    return true;
  }
  let previous: string | undefined;
  for (const key in value) {
    if (previous !== undefined && !(previous < key)) return false;
    previous = key;
    if (!keysSorted((value as Record<string, unknown>)[key])) return false;
  }
  return true;
}
