import type { JsonObject, JsonValue, ToolContext, ToolOutput } from '@toolgate/core';
import { withholdRemotePaths } from '../remote-withheld.js';
import { checkMapped, mapResult } from './map-result.js';
import type { Entry } from './tool-index.js';

/**
 * Calls a served tool on its server's session with the caller's signal, deadline and progress, and
 * maps the result back: the paths policy withholds taken out, every block checked.
 */
export async function callRemote(
  entry: Entry,
  name: string,
  parameters: JsonObject,
  context: ToolContext | undefined,
): Promise<JsonValue | ToolOutput> {
  const result = await entry.connection.call(
    entry.remoteName,
    parameters,
    context && {
      signal: context.signal,
      deadline: context.deadline,
      onProgress: (progress) => context.reportProgress(progress),
    },
  );
  const where = { server: entry.connection.name, tool: name };
  const mapped = withholdRemotePaths(
    entry.connection.config,
    entry.remoteName,
    mapResult(result, where),
    context,
  );
  return checkMapped(mapped, where);
}
