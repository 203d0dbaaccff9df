import { maxRecordDepth } from './nesting.js';

/**
 * The RFC 8785 (JCS) serialiser: object keys sorted by UTF-16 code units, no whitespace, strings
 * and numbers as ECMAScript's JSON.stringify writes them (which is what JCS prescribes), lone
 * surrogates, NaN and the infinities refused. Written for speed: one pass, strings concatenated
 * as it goes, no intermediate arrays but each object's sorted keys.
 *
 * Beyond plain JSON it does what the `canonicalize` package (4.x) does, so ledgers stay byte for
 * byte the same: `toJSON` is honoured, `undefined` members are left out and `undefined` array
 * items written as null; it refuses what that package would write as no JSON (functions, symbols,
 * Maps, Sets, bigints) and cycles.
 *
 * @throws Error naming where the value has no canonical JSON form (the caller wraps it).
 */
export function serializeCanonical(value: unknown): string {
  const text = write(value, [], []);
  if (text === undefined) throw new Error('at $: undefined has no JSON form');
  return text;
}

/**
 * How deep a value may nest: a stored record nests its payload inside the envelope, so one level
 * less than {@link maxRecordDepth}.
 */
const maxValueDepth = maxRecordDepth - 1;

/** The place a value stands, as `$.a[0].b`. */
function where(path: readonly (string | number)[]): string {
  return `$${path.map((step) => (typeof step === 'number' ? `[${step}]` : `.${step}`)).join('')}`;
}

/** Ancestors are searched for a cycle only past this depth, where a cycle must reach. */
const cycleCheckDepth = 64;

const surrogate = /[\ud800-\udfff]/;
/** What a string needs more than quotes for: escapes, or a surrogate to check. */
const special = /["\\\u0000-\u001f\ud800-\udfff]/;

/** A string's JSON text; refuses a lone surrogate. */
function quote(text: string, path: (string | number)[]): string {
  if (!special.test(text)) return `"${text}"`;
  if (surrogate.test(text) && hasLoneSurrogate(text))
    throw new Error(`at ${where(path)}: a lone UTF-16 surrogate has no canonical JSON form`);
  return JSON.stringify(text);
}

function write(value: unknown, path: (string | number)[], ancestors: object[]): string | undefined {
  switch (typeof value) {
    case 'string':
      return quote(value, path);
    case 'number':
      if (!Number.isFinite(value)) throw new Error(`at ${where(path)}: ${value} is not allowed in JSON`);
      return `${value}`;
    case 'boolean':
      return value ? 'true' : 'false';
    case 'undefined':
      return undefined;
    case 'bigint':
      throw new Error(`at ${where(path)}: a BigInt has no JSON form`);
    case 'function':
    case 'symbol':
      throw new Error(`at ${where(path)}: a ${typeof value} has no JSON form`);
  }
  if (value === null) return 'null';
  const object = value as Record<string, unknown>;
  if (ancestors.length >= cycleCheckDepth && ancestors.includes(object)) {
    const first = path.slice(0, ancestors.indexOf(object) + 1);
    throw new Error(`at ${where(first)}: Circular reference detected (the value contains itself)`);
  }
  if (typeof object.toJSON === 'function') {
    ancestors.push(object);
    const text = write(object.toJSON(), path, ancestors);
    ancestors.pop();
    return text;
  }
  if (object instanceof Map || object instanceof Set)
    throw new Error(`at ${where(path)}: a ${object.constructor.name} has no JSON form`);
  if (path.length >= maxValueDepth)
    throw new Error(
      `at ${where(path.slice(0, 4))}…: the value nests deeper than ${maxValueDepth} levels, more than a ledger record may`,
    );
  ancestors.push(object);
  let text: string;
  if (Array.isArray(object)) {
    text = '[';
    for (let index = 0; index < object.length; index++) {
      if (index > 0) text += ',';
      const item = object[index];
      if (item === undefined) {
        text += 'null';
        continue;
      }
      path.push(index);
      text += write(item, path, ancestors) ?? 'null';
      path.pop();
    }
    text += ']';
  } else {
    const keys = Object.keys(object);
    if (!inOrder(keys)) keys.sort();
    text = '{';
    let first = true;
    for (const key of keys) {
      const item = object[key];
      if (item === undefined) continue;
      path.push(key);
      const itemText = write(item, path, ancestors);
      path.pop();
      if (itemText === undefined) continue; // toJSON gave undefined
      text += `${first ? '' : ','}${quote(key, path)}:${itemText}`;
      first = false;
    }
    text += '}';
  }
  ancestors.pop();
  return text;
}

/** True when the keys are sorted already, as an object built or parsed in canonical order has them. */
function inOrder(keys: string[]): boolean {
  for (let index = 1; index < keys.length; index++)
    if (!((keys[index - 1] as string) < (keys[index] as string))) return false;
  return true;
}

/** True when a UTF-16 surrogate in the text is not one half of a pair. */
export function hasLoneSurrogate(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0xd800 || code > 0xdfff) continue;
    if (code > 0xdbff) return true;
    const next = text.charCodeAt(index + 1);
    if (!(next >= 0xdc00 && next <= 0xdfff)) return true;
    index++;
  }
  return false;
}
