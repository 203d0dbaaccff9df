import type { JsonValue } from '@toolgate/core';

/**
 * Where lone UTF-16 surrogates were replaced with U+FFFD in a recorded payload: the path to the
 * string (object keys and array indexes from the payload's root), the code-unit offsets replaced in
 * it, and the code units that stood there (hex, e.g. `d800`). `key: true` when the string is an
 * object key (the last path element is then the key as replaced).
 */
export interface SurrogateReplacement {
  readonly path: (string | number)[];
  readonly at: number[];
  readonly units: string[];
  readonly key?: true;
}

/** The payload field a recorder notes replaced lone surrogates in. */
export const surrogatesReplacedField = 'surrogatesReplaced';

const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const loneSurrogates = new RegExp(loneSurrogate.source, 'g');

/**
 * A JSON value with every lone UTF-16 surrogate (which has no canonical JSON form, RFC 8785 §3.2.2.2)
 * replaced by U+FFFD, and where that was done. Returns the value itself, untouched, when there is
 * none; copies only what it changes.
 */
export function replaceLoneSurrogates(value: JsonValue): {
  value: JsonValue;
  replaced: SurrogateReplacement[];
} {
  const replaced: SurrogateReplacement[] = [];
  return { value: walk(value, [], replaced), replaced };
}

function fixed(text: string, path: (string | number)[], replaced: SurrogateReplacement[], key: boolean) {
  if (!loneSurrogate.test(text)) return text;
  const at: number[] = [];
  const units: string[] = [];
  const result = text.replace(loneSurrogates, (unit: string, offset: number) => {
    at.push(offset);
    units.push(unit.charCodeAt(0).toString(16));
    return '\ufffd';
  });
  const where = key ? [...path, result] : [...path];
  replaced.push(key ? { path: where, at, units, key: true } : { path: where, at, units });
  return result;
}

function walk(value: JsonValue, path: (string | number)[], replaced: SurrogateReplacement[]): JsonValue {
  if (typeof value === 'string') return fixed(value, path, replaced, false);
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    let copy: JsonValue[] | undefined;
    for (let index = 0; index < value.length; index++) {
      path.push(index);
      const item = walk(value[index] as JsonValue, path, replaced);
      path.pop();
      if (item !== value[index]) {
        copy ??= value.slice();
        copy[index] = item;
      }
    }
    return copy ?? value;
  }
  let copy: { [key: string]: JsonValue } | undefined;
  const keys = Object.keys(value);
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index]!;
    const newKey = fixed(key, path, replaced, true);
    path.push(newKey);
    const item = walk(value[key] as JsonValue, path, replaced);
    path.pop();
    if (newKey !== key || item !== value[key]) {
      if (!copy) {
        copy = {};
        for (const earlier of keys.slice(0, index)) define(copy, earlier, value[earlier] as JsonValue);
      }
    }
    if (copy) define(copy, newKey, item);
  }
  return copy ?? value;
}

/** Sets an own property, even one named `__proto__` (as JSON.parse does). */
function define(target: { [key: string]: JsonValue }, key: string, value: JsonValue): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * Puts back the lone surrogates a recorder replaced in string values (not keys), so a replay serves
 * exactly what the recorded run saw. Returns the value itself when there is nothing to restore.
 */
export function restoreLoneSurrogates(value: JsonValue, replaced: unknown): JsonValue {
  if (!Array.isArray(replaced) || replaced.length === 0) return value;
  const copy = JSON.parse(JSON.stringify(value)) as JsonValue;
  let root = copy;
  for (const entry of replaced as SurrogateReplacement[]) {
    if (entry?.key || !Array.isArray(entry?.path) || !Array.isArray(entry.at)) continue;
    if (entry.path.length === 0) {
      if (typeof root === 'string') root = restored(root, entry);
      continue;
    }
    let parent: JsonValue | undefined = root;
    for (const step of entry.path.slice(0, -1)) parent = childOf(parent, step);
    const last = entry.path.at(-1)!;
    const text = childOf(parent, last);
    if (typeof text === 'string' && parent !== null && typeof parent === 'object') {
      (parent as Record<string | number, JsonValue>)[last] = restored(text, entry);
    }
  }
  return root;
}

function childOf(value: JsonValue | undefined, step: string | number): JsonValue | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  return (value as Record<string | number, JsonValue>)[step];
}

function restored(text: string, entry: SurrogateReplacement): string {
  const pieces: string[] = [];
  let from = 0;
  entry.at.forEach((offset, index) => {
    const unit = Number.parseInt(entry.units[index] ?? '', 16);
    if (offset < from || text[offset] !== '\ufffd' || !(unit >= 0xd800 && unit <= 0xdfff)) return;
    pieces.push(text.slice(from, offset), String.fromCharCode(unit));
    from = offset + 1;
  });
  pieces.push(text.slice(from));
  return pieces.join('');
}
