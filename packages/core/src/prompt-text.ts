import { notJson, notSchemaField } from './plain-schema.js';
import type { JsonSchema, ToolDescription } from './tool.js';

/** How long a tool description, and a description or title inside its schema, may be in a prompt. */
export const promptTextLimits = {
  /** A tool's description, in characters. */
  maxDescriptionChars: 4000,
  /** A `description` or `title` inside a tool's input schema, in characters. */
  maxSchemaTextChars: 1000,
  /** Deeper parts of a schema are shown as `{}` (remote schemas are refused past this depth anyway). */
  maxSchemaDepth: 64,
} as const;

const escapeSequences =
  // CSI (ESC [ … final), OSC (ESC ] … BEL or ESC \), other two-character escapes, 8-bit CSI.
  /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-Z\\-_]|\u009b[0-?]*[ -/]*[@-~]/g;
const lineBreaks = /[\n\v\f\r\u0085\u2028\u2029]+/g;
// The remaining C0/C1 controls (tab is kept) and the bidirectional overrides that reorder text.
const controls = /[\u0000-\u0008\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const loneSurrogates = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * A text as it may appear in a prompt: terminal escape sequences and control characters removed,
 * every line break turned into a space (so the text cannot start a line of its own, such as a
 * forged `- tool: …` line), lone surrogates replaced, ends trimmed, and cut at `maxChars` with a marker.
 */
export function promptText(text: string, maxChars: number): string {
  const clean = text
    .replace(escapeSequences, '')
    .replace(lineBreaks, ' ')
    .replace(controls, '')
    .replace(loneSurrogates, '\ufffd')
    .trim();
  if (clean.length <= maxChars) return clean;
  let end = maxChars;
  const code = clean.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${clean.slice(0, end)} [… truncated: ${clean.length - end} more characters not shown]`;
}

const cleanSchemas = new WeakMap<object, JsonSchema>();

/**
 * A tool description as a model sees it: its description and every `description` and `title` in
 * its input schema passed through {@link promptText}. Schemas are cleaned once per schema object.
 */
export function promptDescription(tool: ToolDescription): ToolDescription {
  let inputSchema = cleanSchemas.get(tool.inputSchema);
  if (inputSchema === undefined) {
    inputSchema = cleanSchema(tool.inputSchema, 1) as JsonSchema;
    cleanSchemas.set(tool.inputSchema, inputSchema);
  }
  return {
    ...tool,
    description: promptText(tool.description, promptTextLimits.maxDescriptionChars),
    inputSchema,
  };
}

function cleanSchema(value: unknown, depth: number): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (depth > promptTextLimits.maxSchemaDepth) return {};
  if (Array.isArray(value)) return value.map((item) => (notJson(item) ? null : cleanSchema(item, depth + 1)));
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key, child]) => !notSchemaField(key, child))
      .map(([key, child]) => [
        key,
        (key === 'description' || key === 'title') && typeof child === 'string'
          ? promptText(child, promptTextLimits.maxSchemaTextChars)
          : cleanSchema(child, depth + 1),
      ]),
  );
}
