/** One `x-mcp-header` declaration of a tool's input schema (MCP 2026-07-28, SEP-2243). */
export interface ParamHeader {
  /** The property path from the arguments' root, through `properties` only. */
  readonly path: readonly string[];
  /** The header is `Mcp-Param-{name}`. */
  readonly name: string;
}

/** A tool's `x-mcp-header` declarations, or the first way they break the revision's rules. */
export type ParamHeaderScan = { readonly headers: readonly ParamHeader[] } | { readonly problem: string };

const key = 'x-mcp-header';
/** RFC 9110 `token`: no space, no control character, no delimiter such as `:`. */
const token = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** The property types a header may mirror (`number` is not among them). */
const primitiveTypes = new Set(['string', 'integer', 'boolean']);
/** Keywords whose subschemas are not statically reachable through `properties`: a declaration there is invalid. */
const unreachableKeywords = [
  'items',
  'prefixItems',
  'contains',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'propertyNames',
  'patternProperties',
  'dependentSchemas',
  'oneOf',
  'anyOf',
  'allOf',
  'not',
  'if',
  'then',
  'else',
  '$defs',
  'definitions',
];
const keyedKeywords = new Set(['patternProperties', 'dependentSchemas', '$defs', 'definitions']);

/**
 * Reads the `x-mcp-header` declarations of a tool's input schema and checks them as the revision
 * requires of a client: each a non-empty RFC 9110 token, unique without regard to case, on a
 * `string`, `integer` or `boolean` property reached from the root through `properties` alone.
 * Walked without recursion, so any depth is safe.
 */
export function scanParamHeaders(inputSchema: unknown): ParamHeaderScan {
  const headers: ParamHeader[] = [];
  const seen = new Map<string, string>();
  const stack: Array<{ node: unknown; path: string[]; reachable: boolean }> = [
    { node: inputSchema, path: [], reachable: true },
  ];
  while (stack.length > 0) {
    const { node, path, reachable } = stack.pop()!;
    if (typeof node !== 'object' || node === null || Array.isArray(node)) continue;
    const schema = node as Record<string, unknown>;
    if (Object.hasOwn(schema, key)) {
      const problem = declarationProblem(schema, path, reachable, seen);
      if (problem !== undefined) return { problem };
      headers.push({ path, name: schema[key] as string });
    }
    // pushed in reverse, so properties are read in their listed order, before what they cannot reach
    for (const keyword of unreachableKeywords) {
      const sub = schema[keyword];
      if (sub === undefined) continue;
      const branches = Array.isArray(sub)
        ? sub
        : keyedKeywords.has(keyword) && typeof sub === 'object' && sub !== null
          ? Object.values(sub)
          : [sub];
      for (const branch of branches)
        stack.push({ node: branch, path: [...path, `<${keyword}>`], reachable: false });
    }
    const properties = schema.properties;
    if (typeof properties === 'object' && properties !== null && !Array.isArray(properties)) {
      for (const [name, child] of Object.entries(properties).reverse()) {
        stack.push({ node: child, path: [...path, name], reachable });
      }
    }
  }
  return { headers };
}

function declarationProblem(
  schema: Record<string, unknown>,
  path: readonly string[],
  reachable: boolean,
  seen: Map<string, string>,
): string | undefined {
  const where = path.length === 0 ? 'the schema root' : `property "${path.join('.')}"`;
  const name = schema[key];
  if (!reachable || path.length === 0) {
    return `x-mcp-header on ${where}, which is not reached from the root through "properties" alone`;
  }
  if (typeof name !== 'string' || name.length === 0)
    return `x-mcp-header on ${where} is not a non-empty string`;
  if (!token.test(name)) {
    return `x-mcp-header ${JSON.stringify(name)} on ${where} is not an HTTP token (no spaces, control characters, non-ASCII or delimiters such as ":")`;
  }
  const type = schema.type;
  if (typeof type !== 'string' || !primitiveTypes.has(type)) {
    return `x-mcp-header ${JSON.stringify(name)} on ${where} of type ${JSON.stringify(type ?? 'none')}: only string, integer and boolean properties may be mirrored`;
  }
  const earlier = seen.get(name.toLowerCase());
  if (earlier !== undefined) {
    return `x-mcp-header ${JSON.stringify(name)} on ${where} repeats ${JSON.stringify(earlier)} (header names are case-insensitive)`;
  }
  seen.set(name.toLowerCase(), name);
  return undefined;
}

/**
 * The `Mcp-Param-{name}` headers of one `tools/call`: each declared argument's value as text
 * (`true`/`false`, decimal numbers), encoded by {@link headerValue}; an argument that is absent,
 * `null` or not a primitive (or a number JSON cannot carry exactly) gets no header.
 */
export function paramHeaders(declared: readonly ParamHeader[], parameters: unknown): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const { path, name } of declared) {
    const text = primitiveText(valueAt(parameters, path));
    if (text !== undefined) headers[`mcp-param-${name}`] = headerValue(text);
  }
  return headers;
}

/**
 * How the `Mcp-Param-{name}` headers of one `tools/call` disagree with its arguments, as a server
 * must judge them (MCP 2026-07-28, answered `-32020` HeaderMismatch): a declared argument that is
 * present (not `null`) needs its header, decoding (the Base64 sentinel, canonical and UTF-8) to the
 * argument's text, numbers compared as numbers. `header` reads a request header by its name. Returns
 * `undefined` when they agree.
 */
export function paramHeaderMismatch(
  declared: readonly ParamHeader[],
  parameters: unknown,
  header: (name: string) => string | null | undefined,
): string | undefined {
  for (const { path, name } of declared) {
    const value = valueAt(parameters, path);
    const text = primitiveText(value);
    if (text === undefined) continue;
    const headerName = `Mcp-Param-${name}`;
    const where = `argument "${path.join('.')}" (${JSON.stringify(value)})`;
    const raw = header(headerName);
    if (raw === null || raw === undefined) return `the ${headerName} header is missing for ${where}`;
    const decoded = decodedHeaderValue(raw.trim());
    if (decoded === undefined) return `the ${headerName} header is not valid Base64 of UTF-8 text`;
    const equal =
      typeof value === 'number' && /^-?\d+(?:\.\d+)?$/.test(decoded)
        ? Number(decoded) === value
        : decoded === text;
    if (!equal) return `the ${headerName} header (${JSON.stringify(decoded)}) does not match ${where}`;
  }
  return undefined;
}

/** A header value's text: the Base64 sentinel's UTF-8, else the value as it is; `undefined` if the sentinel's payload is not canonical Base64 of UTF-8. */
function decodedHeaderValue(value: string): string | undefined {
  if (!(value.startsWith('=?base64?') && value.endsWith('?='))) return value;
  const payload = value.slice('=?base64?'.length, -'?='.length);
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(payload)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(payload, 'base64'));
  } catch {
    return undefined;
  }
}

function valueAt(parameters: unknown, path: readonly string[]): unknown {
  let value = parameters;
  for (const step of path) {
    value =
      typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[step] : undefined;
  }
  return value;
}

function primitiveText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number' && Number.isFinite(value)) {
    return Number.isInteger(value) && !Number.isSafeInteger(value) ? undefined : String(value);
  }
  return undefined;
}

/**
 * A text as an HTTP header value (MCP 2026-07-28): as it is when it is printable ASCII without
 * spaces at either end, else in the revision's Base64 sentinel (`=?base64?…?=`, of its UTF-8), as
 * is an empty text and one that itself looks like the sentinel.
 */
export function headerValue(text: string): string {
  const plain = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/.test(text);
  const looksEncoded = text.startsWith('=?base64?') && text.endsWith('?=');
  return plain && !looksEncoded ? text : `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`;
}
