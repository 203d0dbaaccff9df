/**
 * The data of a policy written as a JSON object, read by `JSON.parse` (tens of times faster than the
 * YAML parser on a generated allow-list of thousands of rules); `undefined` when the text is not a
 * JSON object or names a key twice in one object, so the YAML parser reads it and says what is wrong
 * with the line (a JSON text is a YAML text that means the same, but for its duplicate keys, which
 * YAML refuses and `JSON.parse` would silently resolve to the last).
 */
export function parseJsonPolicy(text: string): unknown {
  const start = text.trimStart();
  if (!start.startsWith('{')) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(start);
  } catch {
    return undefined;
  }
  return keysIn(data) === keysWritten(start) ? data : undefined;
}

/** How many keys the parsed objects hold, nested ones included. */
function keysIn(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  let count = 0;
  if (Array.isArray(value)) for (const item of value) count += keysIn(item);
  else
    for (const key in value) {
      count += 1 + keysIn((value as Record<string, unknown>)[key]);
    }
  return count;
}

/**
 * How many keys the text writes, or more: every key ends with a quote before a colon, and so may a
 * string that holds one. More keys written than parsed means a key was written twice (or a string
 * looks like one), and the YAML parser then decides; never fewer.
 */
function keysWritten(json: string): number {
  let count = 0;
  for (let colon = json.indexOf(':'); colon >= 0; colon = json.indexOf(':', colon + 1)) {
    let before = colon - 1;
    while (before >= 0 && isJsonSpace(json.charCodeAt(before))) before--;
    if (json.charCodeAt(before) === quote) count++;
  }
  return count;
}

const quote = 0x22;

/** True for the whitespace JSON allows between tokens: space, tab, line feed, carriage return. */
function isJsonSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}
