import { base64Bytes, type ContentPart, checkToolOutput, type ToolOutput, toolResult } from './content.js';
import { capText, toCappedJson } from './json.js';

/** The default cap on one binary content part (image, audio, embedded blob): 5 MiB of decoded bytes. */
export const defaultMaxContentBytes = 5 * 1024 * 1024;

/** The caps on one result: its JSON output and each text part by characters, each binary part by bytes. */
export interface OutputCaps {
  /** The cap on the output's JSON text and on each text part's text, in characters. */
  maxOutputChars: number;
  /** The cap on each binary part's decoded bytes. */
  maxContentBytes: number;
}

/**
 * Caps each part on its own: a text (or an embedded text resource) is cut to `maxOutputChars` with a
 * marker saying how much was left out; a binary part (image, audio, embedded blob) over
 * `maxContentBytes` is never cut — base64 cut short is not an image — but replaced, in its place,
 * by a text part saying what was omitted and why. So is a resource link whose JSON is over
 * `maxOutputChars`. Parts within their caps are returned as they are.
 */
export function capContent(parts: readonly ContentPart[], caps: OutputCaps): ContentPart[] {
  return parts.map((part) => capPart(part, caps));
}

/**
 * Checks a {@link ToolOutput} (see {@link checkToolOutput}) and caps its output (as `capOutput`)
 * and each of its parts (as {@link capContent}).
 */
export function capToolOutput(value: ToolOutput, caps: OutputCaps, what = 'a tool output'): ToolOutput {
  const checked = checkToolOutput(value, what);
  return toolResult({
    output: toCappedJson(checked.output, caps.maxOutputChars, what),
    content: capContent(checked.content, caps),
  });
}

function capPart(part: ContentPart, caps: OutputCaps): ContentPart {
  switch (part.type) {
    case 'text': {
      const capped = capText(part.text, caps.maxOutputChars);
      return capped.truncated ? { type: 'text', text: capped.text } : part;
    }
    case 'image':
    case 'audio': {
      const bytes = base64Bytes(part.data);
      if (bytes <= caps.maxContentBytes) return part;
      return omitted(`${part.type} (${quoted(part.mimeType)}, ${bytes} bytes)`, caps.maxContentBytes);
    }
    case 'resource': {
      const resource = part.resource;
      if ('text' in resource) {
        const capped = capText(resource.text, caps.maxOutputChars);
        return capped.truncated ? { type: 'resource', resource: { ...resource, text: capped.text } } : part;
      }
      const bytes = base64Bytes(resource.blob);
      if (bytes <= caps.maxContentBytes) return part;
      return omitted(`embedded resource ${quoted(resource.uri)} (${bytes} bytes)`, caps.maxContentBytes);
    }
    case 'resource_link': {
      const length = JSON.stringify(part).length;
      if (length <= caps.maxOutputChars) return part;
      return {
        type: 'text',
        text: `[resource link omitted: its ${length} characters are over the cap of ${caps.maxOutputChars} for one part]`,
      };
    }
  }
}

function omitted(what: string, cap: number): ContentPart {
  return { type: 'text', text: `[${what} omitted: over the cap of ${cap} bytes for one part]` };
}

function quoted(text: string): string {
  return JSON.stringify(text.length > 100 ? `${text.slice(0, 100)}…` : text);
}
