import type { ContentPart, ToolResult } from '@toolgate/core';
import type { ToolResultPart } from 'ai';

type ToolResultOutput = ToolResultPart['output'];

type ContentOutput = Extract<ToolResultOutput, { type: 'content' }>['value'][number];

/**
 * What the model reads of a gate result: a failure as `error-json` `{ code, message }`; content
 * parts (images, audio, resources) as the SDK's multi-part `content` output, the JSON output first
 * as text; otherwise the JSON output.
 */
export function modelOutputOf(result: ToolResult): ToolResultOutput {
  if (result.isError)
    return { type: 'error-json', value: { code: result.error.code, message: result.error.message } };
  if (result.content === undefined) return { type: 'json', value: result.output };
  const parts: ContentOutput[] = [];
  if (result.output !== null) parts.push({ type: 'text', text: JSON.stringify(result.output) });
  for (const part of result.content) parts.push(partOf(part));
  return { type: 'content', value: parts };
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
