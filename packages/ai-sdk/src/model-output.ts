import type { ContentPart, ToolResult } from '@toolgate/core';
import { modelJson } from '@toolgate/core/internal';
import type { ToolResultPart } from 'ai';

type ToolResultOutput = ToolResultPart['output'];

type ContentOutput = Extract<ToolResultOutput, { type: 'content' }>['value'][number];

/**
 * What the model reads of a gate result, in one shape on every path: a refusal or failure as
 * `error-text` holding the JSON text of `{ code, message }` (the very shape the SDK gives a call it
 * could not parse); an output as `json`, its keys in canonical order (so a replay, which hands back
 * the output as the ledger stored it, shows the model the same bytes); content parts as the SDK's
 * multi-part `content` output. Structured output and text are never both: beside a JSON output
 * (a rendering of it, as MCP asks servers to add), text parts are left out and the other parts
 * (images, audio, resources) follow the output's JSON text.
 */
export function modelOutputOf(result: ToolResult): ToolResultOutput {
  if (result.isError) return { type: 'error-text', value: refusalText(result.error) };
  const output = modelJson(result.output);
  const content = result.content ?? [];
  if (output === null) {
    if (content.length === 0) return { type: 'json', value: null };
    return { type: 'content', value: content.map(partOf) };
  }
  const others = content.filter((part) => part.type !== 'text');
  if (others.length === 0) return { type: 'json', value: output };
  return { type: 'content', value: [{ type: 'text', text: JSON.stringify(output) }, ...others.map(partOf)] };
}

/** The JSON text of `{ code, message }`: what the model reads of every refusal and failure. */
export function refusalText(error: { code: string; message: string }): string {
  return JSON.stringify({ code: error.code, message: error.message });
}

function partOf(part: ContentPart): ContentOutput {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image':
    case 'audio':
      return { type: 'file', mediaType: part.mimeType, data: { type: 'data', data: part.data } };
    case 'resource':
      return 'text' in part.resource
        ? { type: 'text', text: part.resource.text }
        : {
            type: 'file',
            mediaType: part.resource.mimeType ?? 'application/octet-stream',
            data: { type: 'data', data: part.resource.blob },
          };
    case 'resource_link':
      return { type: 'text', text: JSON.stringify(part) };
  }
}
