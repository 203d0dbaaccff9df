import { ToolgateError } from './errors.js';
import { type JsonValue, toJsonValue } from './json.js';

/** Text for the model: MCP's `{ type: 'text', text }`. */
export interface TextPart {
  type: 'text';
  text: string;
}

/** An image, base64-encoded: MCP's `{ type: 'image', data, mimeType }`. */
export interface ImagePart {
  type: 'image';
  /** The image bytes, base64-encoded (standard alphabet, with or without `=` padding). */
  data: string;
  /** Such as `image/png`. */
  mimeType: string;
}

/** Audio, base64-encoded: MCP's `{ type: 'audio', data, mimeType }`. */
export interface AudioPart {
  type: 'audio';
  /** The audio bytes, base64-encoded. */
  data: string;
  /** Such as `audio/wav`. */
  mimeType: string;
}

/** A pointer to a resource the model or client may read: MCP's `resource_link`. */
export interface ResourceLinkPart {
  type: 'resource_link';
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  /** Its size in bytes, when known. */
  size?: number;
}

/** A resource embedded whole, as text or as base64 bytes: MCP's `{ type: 'resource', resource }`. */
export interface EmbeddedResourcePart {
  type: 'resource';
  resource:
    | { uri: string; mimeType?: string; text: string }
    | { uri: string; mimeType?: string; blob: string };
}

/**
 * One part of a tool result beyond its JSON output, in the shapes of MCP's content blocks (without
 * their `annotations` and `_meta`). Every part is plain JSON, so the ledger records it as it is.
 */
export type ContentPart = TextPart | ImagePart | AudioPart | ResourceLinkPart | EmbeddedResourcePart;

/** What a tool returns to carry content parts: made by {@link toolResult}, recognised by `isToolOutput`. */
export interface ToolOutput {
  /** The JSON output; `null` when the tool gave only content. */
  readonly output: JsonValue;
  /** The parts, in order. */
  readonly content: readonly ContentPart[];
}

// A symbol key: no value parsed from JSON, and no plain object a tool builds by accident, carries it,
// so an output such as `{ content: '…' }` (read_file's) is never mistaken for content parts.
// `Symbol.for` makes it the same key in every copy of this package.
const brand = Symbol.for('@toolgate/core.toolOutput');

/**
 * The value a tool returns to give content parts — text, images, audio, resource links, embedded
 * resources — besides (or instead of) its JSON output. The gate checks every part (a malformed one is
 * INVALID_OUTPUT naming it) and caps each (see `capContent`). A plain return value is always
 * JSON output only.
 *
 * @example
 * run: async ({ seed }) =>
 *   toolResult({
 *     output: { seed },
 *     content: [
 *       { type: 'text', text: 'The omen, drawn:' },
 *       { type: 'image', data: pngBytes.toString('base64'), mimeType: 'image/png' },
 *     ],
 *   }),
 */
export function toolResult(result: { output?: unknown; content: readonly ContentPart[] }): ToolOutput {
  const value = { output: (result.output ?? null) as JsonValue, content: result.content };
  Object.defineProperty(value, brand, { value: true });
  return Object.freeze(value);
}

/** True for a value made by {@link toolResult} (in any copy of this package). */
export function isToolOutput(value: unknown): value is ToolOutput {
  return typeof value === 'object' && value !== null && (value as { [brand]?: unknown })[brand] === true;
}

const base64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** How many bytes a base64 string decodes to. */
export function base64Bytes(data: string): number {
  let padding = 0;
  while (padding < 2 && data.charCodeAt(data.length - 1 - padding) === 0x3d) padding++;
  return Math.floor(((data.length - padding) * 3) / 4);
}

/**
 * Checks a {@link ToolOutput} returned by `what` (e.g. `the output of tool "draw"`): its output is JSON
 * and each part has exactly a known shape, base64 where bytes are due. Returns plain copies holding
 * only the known fields; throws INVALID_OUTPUT naming the first bad part.
 */
export function checkToolOutput(
  value: ToolOutput,
  what: string,
): { output: JsonValue; content: ContentPart[] } {
  const output = toJsonValue(value.output, what);
  const parts: unknown = value.content;
  if (!Array.isArray(parts)) throw badPart(what, -1, '"content" is not an array of parts');
  return { output, content: parts.map((part, index) => checkPart(part, index, what)) };
}

function checkPart(part: unknown, index: number, what: string): ContentPart {
  if (typeof part !== 'object' || part === null || Array.isArray(part)) {
    throw badPart(what, index, 'it is not an object');
  }
  const fields = part as Record<string, unknown>;
  const text = (key: string, optional = false): string | undefined => {
    const field = fields[key];
    if (field === undefined && optional) return undefined;
    if (typeof field !== 'string') throw badPart(what, index, `its "${key}" is not a string`);
    return field;
  };
  const bytes = (field: unknown, key: string): string => {
    if (typeof field !== 'string' || !base64.test(field) || field.length % 4 === 1) {
      throw badPart(what, index, `its "${key}" is not base64 (A–Z, a–z, 0–9, "+", "/", "=" padding)`);
    }
    return field;
  };
  switch (fields.type) {
    case 'text':
      return { type: 'text', text: text('text')! };
    case 'image':
    case 'audio':
      return { type: fields.type, data: bytes(fields.data, 'data'), mimeType: text('mimeType')! };
    case 'resource_link': {
      const link: ResourceLinkPart = { type: 'resource_link', uri: text('uri')!, name: text('name')! };
      for (const key of ['title', 'description', 'mimeType'] as const) {
        const value = text(key, true);
        if (value !== undefined) link[key] = value;
      }
      if (fields.size !== undefined) {
        if (typeof fields.size !== 'number' || !Number.isSafeInteger(fields.size) || fields.size < 0) {
          throw badPart(what, index, 'its "size" is not a whole number of bytes');
        }
        link.size = fields.size;
      }
      return link;
    }
    case 'resource':
      return { type: 'resource', resource: checkResource(fields.resource, index, what, bytes) };
    default:
      throw badPart(
        what,
        index,
        `its type ${JSON.stringify(String(fields.type)).slice(0, 80)} is not one of text, image, audio, resource_link, resource`,
      );
  }
}

function checkResource(
  value: unknown,
  index: number,
  what: string,
  bytes: (field: unknown, key: string) => string,
): EmbeddedResourcePart['resource'] {
  const resource = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  if (typeof resource.uri !== 'string') throw badPart(what, index, 'its "resource.uri" is not a string');
  if (resource.mimeType !== undefined && typeof resource.mimeType !== 'string') {
    throw badPart(what, index, 'its "resource.mimeType" is not a string');
  }
  const head = {
    uri: resource.uri,
    ...(resource.mimeType === undefined ? {} : { mimeType: resource.mimeType as string }),
  };
  if (typeof resource.text === 'string') return { ...head, text: resource.text };
  if (resource.blob !== undefined) return { ...head, blob: bytes(resource.blob, 'resource.blob') };
  throw badPart(what, index, 'its "resource" has neither a string "text" nor a base64 "blob"');
}

function badPart(what: string, index: number, why: string): ToolgateError {
  const where = index < 0 ? '' : ` (content part ${index})`;
  return new ToolgateError(
    'INVALID_OUTPUT',
    `${what}${where} is not a content part: ${why}; content parts take the shapes of MCP content blocks (see toolResult)`,
  );
}
