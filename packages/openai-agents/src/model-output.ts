import type { ToolOutputImage, ToolOutputText } from '@openai/agents';
import type { ContentPart, ToolResult } from '@toolgate/core';
import { modelJson, type ToolErrorData } from '@toolgate/core/internal';

/** A part of a multi-part Agents tool output. */
export type AgentsOutputPart = ToolOutputText | ToolOutputImage;

/**
 * What the model reads for one gated call, in one shape on every path: the JSON text of the output,
 * its keys in canonical order (so a replay, which hands back the output as the ledger stored it,
 * shows the model the same bytes); an error as the JSON text of `{ code, message }`; a result with
 * content parts as Agents' multi-part output. Structured output and text are never both: beside a
 * JSON output (a rendering of it, as MCP asks servers to add), text parts are left out and the other
 * parts follow the output's JSON text; a result with no output (`null`) gives every part. Images
 * become Agents image parts; audio and resources, which Agents' function tool output cannot carry,
 * become a text part that says what was there.
 */
export function modelOutput(result: ToolResult): string | AgentsOutputPart[] {
  if (result.isError) return errorText(result.error);
  const output = modelJson(result.output);
  const text = JSON.stringify(output);
  const content = result.content ?? [];
  if (output === null) return content.length === 0 ? text : content.map(agentsPart);
  const others = content.filter((part) => part.type !== 'text');
  if (others.length === 0) return text;
  return [{ type: 'text', text }, ...others.map(agentsPart)];
}

/** The JSON text of a refusal or failure, as the model reads it. */
export function errorText(error: ToolErrorData): string {
  return JSON.stringify({ code: error.code, message: error.message });
}

function agentsPart(part: ContentPart): AgentsOutputPart {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image':
      return { type: 'image', image: { data: part.data, mediaType: part.mimeType } };
    case 'audio':
      return {
        type: 'text',
        text: `[audio (${part.mimeType}) omitted: Agents tool output carries no audio]`,
      };
    case 'resource_link':
      return { type: 'text', text: JSON.stringify(part) };
    case 'resource':
      return 'text' in part.resource
        ? { type: 'text', text: part.resource.text }
        : {
            type: 'text',
            text: `[resource ${part.resource.uri}${part.resource.mimeType ? ` (${part.resource.mimeType})` : ''} omitted: binary]`,
          };
  }
}
