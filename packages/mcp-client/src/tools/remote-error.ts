import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ToolgateError } from '@toolgate/core';
import { promptText } from '@toolgate/core/internal';

const maxRemoteCodeChars = 64;

/**
 * A remote tool's error result, as the model reads it. Its code is always TOOL_FAILED and its
 * message names the tool and the server, so a server can never speak as the gate: a remote
 * `PERMISSION_DENIED`, `CAPABILITY_VIOLATION`, `UNKNOWN_TOOL` or any other code is only the
 * server's word, kept beside the message (and as {@link RemoteToolFailure.remoteCode}).
 */
export class RemoteToolFailure extends ToolgateError {
  /** The server that reported the error. */
  readonly server: string;
  /** The code the server put in its error result (`structuredContent.code`), if any. */
  readonly remoteCode: string | undefined;

  constructor(server: string, message: string, remoteCode: string | undefined) {
    super('TOOL_FAILED', message);
    this.server = server;
    this.remoteCode = remoteCode;
  }
}

/** The {@link RemoteToolFailure} for an `isError` result of `tool` on `server`. */
export function remoteToolFailure(
  result: CallToolResult,
  where: { server: string; tool: string },
): RemoteToolFailure {
  const structured = result.structuredContent as { code?: unknown; message?: unknown } | undefined;
  const remoteCode =
    typeof structured?.code === 'string' ? promptText(structured.code, maxRemoteCodeChars) : undefined;
  const texts = (Array.isArray(result.content) ? result.content : [])
    .filter((block) => block.type === 'text')
    .map((block) => (block as { text: string }).text);
  // toolgate-mcp puts its code before the message for clients that read only text: said once here.
  const said = remoteCode === undefined ? '' : `${remoteCode}: `;
  const text =
    texts
      .map((line) => (said !== '' && line.startsWith(said) ? line.slice(said.length) : line))
      .join('\n')
      .trim() ||
    (typeof structured?.message === 'string' ? structured.message.trim() : '') ||
    'it reported an error without a message';
  const code = remoteCode === undefined ? '' : ` (the server's own code: ${remoteCode})`;
  return new RemoteToolFailure(
    where.server,
    `tool "${where.tool}" on MCP server "${where.server}" failed${code}: ${text}`,
    remoteCode,
  );
}
