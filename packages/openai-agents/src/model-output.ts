import type { ToolOutputImage, ToolOutputText } from '@openai/agents';
import type { ContentPart, ToolResult } from '@toolgate/core';
import type { ToolErrorData } from '@toolgate/core/internal';

/** A part of a multi-part Agents tool output. */
export type AgentsOutputPart = ToolOutputText | ToolOutputImage;

/**
 * What the model reads for one gated call: the JSON text of the output; an error as the JSON text
 * of `{ code, message }`; a result with content parts as Agents' multi-part output — the output's
 * JSON text first (unless the tool gave only content), then each part in order. Images become
 * Agents image parts; text stays text; audio and resources, which Agents' function tool output
 * cannot carry, become a text part that says what was there.
 */
export function modelOutput(result: ToolResult): string | AgentsOutputPart[] {
  if (result.isError) return errorText(result.error);
  const text = JSON.stringify(result.output);
  if (result.content === undefined || result.content.length === 0) return text;
  const parts: AgentsOutputPart[] = result.output === null ? [] : [{ type: 'text', text }];
  for (const part of result.content) parts.push(agentsPart(part));
  return parts;
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
