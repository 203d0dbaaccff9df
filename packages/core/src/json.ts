import { ToolgateError } from './errors.js';

/** A value that survives `JSON.stringify` / `JSON.parse` unchanged. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A JSON object, the shape tool parameters and most tool outputs take. */
export type JsonObject = { [key: string]: JsonValue };

/**
 * Checks that `value` is plain JSON and returns it as such. Values JSON would silently mangle are
 * refused: functions, symbols, bigints, non-finite numbers, cycles, Maps and Sets. `undefined` at
 * the top becomes `null`; `undefined` properties are dropped; objects with `toJSON` (such as Date)
 * are converted the way `JSON.stringify` would.
 *
 * @param what names the value in the error message, e.g. `output of tool "oracle"` (a function is
 *   called only when there is an error to name).
 */
export function toJsonValue(value: unknown, what: string | (() => string) = 'value'): JsonValue {
  if (jsonSizeBound(value, 0) >= 0) return value as JsonValue;
  return convert(value, typeof what === 'string' ? what : what(), '$', new Set());
}

const maxFastDepth = 256;
/** `hasOwnProperty` itself: V8 folds `hasOwnProperty.call(object, key)` on a `for…in` key into a map check, not `Object.hasOwn`. */
const ownKey = Object.prototype.hasOwnProperty;

/**
 * An upper bound on the length of `JSON.stringify(value)`, or -1 when `value` is not already plain
 * JSON (then only serialising it tells). Walks the value once and allocates nothing.
 */
export function jsonTextBound(value: unknown): number {
  return jsonSizeBound(value, 0);
}

/**
 * An upper bound on the length of `JSON.stringify(value)` (every character escaped at its
 * longest), or -1 when `value` is not already plain JSON (a non-plain object, an undefined
 * property, a non-finite number, a nesting deeper than the fast path goes). Allocates nothing,
 * so the common case costs one walk.
 */
function jsonSizeBound(value: unknown, depth: number): number {
  switch (typeof value) {
    case 'string':
      return value.length * 6 + 2;
    case 'number':
      return Number.isFinite(value) ? 24 : -1;
    case 'boolean':
      return 5;
    case 'object':
      break;
    default:
      return -1;
  }
  if (value === null) return 4;
  if (depth > maxFastDepth) return -1;
  if (Array.isArray(value)) {
    let size = 2 + value.length;
    for (let index = 0; index < value.length; index++) {
      const item = jsonSizeBound(value[index], depth + 1);
      if (item < 0) return -1;
      size += item;
    }
    return size;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return -1;
  let size = 2;
  // `for…in` allocates no array of keys (Object.keys does); an inherited key (a polluted
  // Object.prototype) leaves the fast path
  for (const key in value) {
    if (!ownKey.call(value, key)) return -1;
    const item = jsonSizeBound((value as Record<string, unknown>)[key], depth + 1);
    if (item < 0) return -1;
    size += key.length * 6 + 4 + item;
  }
  return size;
}

function convert(value: unknown, what: string, path: string, seen: Set<object>): JsonValue {
  switch (typeof value) {
    case 'undefined':
      return null;
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (!Number.isFinite(value)) fail(what, path, `the number ${value} has no JSON form`);
      return value;
    case 'bigint':
      fail(what, path, 'a bigint has no JSON form; return it as a string');
      break;
    case 'function':
      fail(what, path, 'a function has no JSON form');
      break;
    case 'symbol':
      fail(what, path, 'a symbol has no JSON form');
      break;
  }
  if (value === null) return null;
  const object = value as object;
  if (seen.has(object)) fail(what, path, 'it refers back to itself (a cycle)');
  if (object instanceof Map || object instanceof Set) {
    fail(what, path, `a ${object.constructor.name} has no JSON form; return an object or array`);
  }
  const withToJson = object as { toJSON?: unknown };
  if (typeof withToJson.toJSON === 'function') {
    return convert((withToJson.toJSON as () => unknown)(), what, path, seen);
  }
  seen.add(object);
  try {
    if (Array.isArray(object)) {
      return object.map((item, index) => convert(item, what, `${path}[${index}]`, seen));
    }
    const result: JsonObject = {};
    for (const [key, item] of Object.entries(object)) {
      if (item === undefined) continue;
      result[key] = convert(item, what, `${path}.${key}`, seen);
    }
    return result;
  } finally {
    seen.delete(object);
  }
}

function fail(what: string, path: string, why: string): never {
  throw new ToolgateError(
    'INVALID_OUTPUT',
    `${what} is not JSON at ${path}: ${why}; tools must return plain JSON values`,
  );
}

/** The marker appended to text that was cut short. */
export function truncationMarker(omitted: number, unit = 'characters'): string {
  return `\n[… truncated: ${omitted} more ${unit} not shown]`;
}

/**
 * Cuts `text` to at most `max` characters (plus an explicit marker saying how much was left out).
 * Never splits a surrogate pair.
 */
export function capText(text: string, max: number): { text: string; truncated: boolean; omitted: number } {
  if (text.length <= max) return { text, truncated: false, omitted: 0 };
  let end = max;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  const omitted = text.length - end;
  return { text: text.slice(0, end) + truncationMarker(omitted), truncated: true, omitted };
}

const needsEscape = /["\\\u0000-\u001f\ud800-\udfff]/;

/** How many characters `text` takes inside a JSON string (`JSON.stringify(text).length - 2`). */
export function jsonTextLength(text: string): number {
  if (!needsEscape.test(text)) return text.length;
  let length = 0;
  for (let index = 0; index < text.length; index++) length += escapedWidth(text, index);
  return length;
}

/** The JSON-escaped width of the code unit at `index`: 1, 2 (`\"`, `\n` …) or 6 (`\u0001`, a lone surrogate). */
function escapedWidth(text: string, index: number): number {
  const code = text.charCodeAt(index);
  if (code === 0x22 || code === 0x5c) return 2;
  if (code < 0x20) return code === 8 || code === 9 || code === 10 || code === 12 || code === 13 ? 2 : 6;
  if (code >= 0xd800 && code <= 0xdbff) {
    const next = text.charCodeAt(index + 1);
    return next >= 0xdc00 && next <= 0xdfff ? 1 : 6;
  }
  if (code >= 0xdc00 && code <= 0xdfff) {
    const previous = text.charCodeAt(index - 1);
    return previous >= 0xd800 && previous <= 0xdbff ? 1 : 6;
  }
  return 1;
}

/** The longest prefix of `text` (in code units) whose JSON-escaped form fits `budget`; never splits a surrogate pair. */
function prefixWithin(text: string, budget: number): number {
  let used = 0;
  let end = 0;
  while (end < text.length) {
    const width = escapedWidth(text, end);
    if (used + width > budget) break;
    used += width;
    end++;
  }
  const code = text.charCodeAt(end - 1);
  if (end > 0 && end < text.length && code >= 0xd800 && code <= 0xdbff) end -= 1;
  return end;
}

/**
 * Cuts `text` so that it takes at most `max` characters inside a JSON string — what a model reading
 * the JSON actually gets: a quote or a backslash counts 2, a control character 2 or 6 — plus an
 * explicit marker saying how many characters were left out. Never splits a surrogate pair.
 */
export function capJsonText(
  text: string,
  max: number,
): { text: string; truncated: boolean; omitted: number } {
  if (text.length <= max && jsonTextLength(text) <= max) return { text, truncated: false, omitted: 0 };
  const end = prefixWithin(text, Math.max(0, max));
  const omitted = text.length - end;
  return { text: text.slice(0, end) + truncationMarker(omitted), truncated: true, omitted };
}

/** The shape a capped output takes. */
type CappedOutput = {
  truncated: true;
  omittedChars: number;
  text: string;
};

/**
 * Caps a JSON output to `maxChars` of serialised JSON. An output that fits is returned as it is;
 * one that does not becomes `{ truncated: true, omittedChars, text }` with the first part of its
 * JSON text and a marker, so the model sees that, and how much, was cut. The cap holds on what is
 * returned: `JSON.stringify` of the capped object is at most `maxChars` (escaping included; only
 * a cap below the ~100 characters of the wrapper itself is exceeded, by the bare wrapper). An
 * output that is already capped (from a remote toolgate, or a resolver) is cut further, never
 * wrapped again.
 */
export function capOutput(output: JsonValue, maxChars: number): JsonValue {
  return toCappedJson(output, maxChars);
}

/**
 * {@link toJsonValue} and {@link capOutput} in one walk: checks `value` is JSON (throwing
 * INVALID_OUTPUT naming where it is not) and caps it to `maxChars` of serialised JSON.
 */
export function toCappedJson(
  value: unknown,
  maxChars: number,
  what: string | (() => string) = 'value',
): JsonValue {
  const bound = jsonSizeBound(value, 0);
  if (bound >= 0 && bound <= maxChars) return value as JsonValue;
  const output =
    bound >= 0
      ? (value as JsonValue)
      : convert(value, typeof what === 'string' ? what : what(), '$', new Set());
  const serialised = JSON.stringify(output);
  if (serialised.length <= maxChars) return output;
  if (isCapped(output)) {
    // Cut the text further, counting what was cut before: one wrapper, however many caps it passed.
    const marker = truncationMarker(output.omittedChars);
    const text = output.text.endsWith(marker) ? output.text.slice(0, -marker.length) : output.text;
    return wrap(text, output.omittedChars, output.omittedChars + text.length, maxChars);
  }
  return wrap(serialised, 0, serialised.length, maxChars);
}

function isCapped(value: JsonValue): value is JsonValue & CappedOutput {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const { truncated, omittedChars, text } = value as Partial<CappedOutput>;
  return (
    Object.keys(value).length === 3 &&
    truncated === true &&
    typeof omittedChars === 'number' &&
    Number.isSafeInteger(omittedChars) &&
    omittedChars >= 0 &&
    typeof text === 'string'
  );
}

/** `{ truncated, omittedChars, text }` with as much of `text` as fits `maxChars` in all. */
function wrap(text: string, alreadyOmitted: number, mostOmitted: number, maxChars: number): CappedOutput {
  // The wrapper and the marker, with the longest count they can hold, are paid for first.
  const frame = JSON.stringify({ truncated: true, omittedChars: mostOmitted, text: '' }).length;
  const marker = jsonTextLength(truncationMarker(mostOmitted));
  const end = prefixWithin(text, Math.max(0, maxChars - frame - marker));
  const omittedChars = alreadyOmitted + text.length - end;
  return { truncated: true, omittedChars, text: text.slice(0, end) + truncationMarker(omittedChars) };
}
