import { policyWithholds, withholdFromOutput } from '@toolgate/builtins';
import type { JsonValue, ToolContext, ToolOutput } from '@toolgate/core';
import type { McpServerConfig } from './server-config.js';

/**
 * What a toolgate pattern tool served by `toolgate-mcp` (`subjects: 'toolgate'`) returned, with
 * every path policy withholds from this call taken out and counted, as the same tool does
 * in-process (see `policyWithholds` in `@toolgate/builtins`). The server has read those files; what
 * it read of them reaches neither the model nor the ledger. Any other server's output is passed on
 * as it is: its shape is the server's own, so toolgate cannot tell which paths it names (a rule
 * on `paths` judges only the parameters its `subjects` mapping declares).
 */
export function withholdRemotePaths(
  config: McpServerConfig,
  remoteName: string,
  output: JsonValue | ToolOutput,
  context: ToolContext | undefined,
): JsonValue | ToolOutput {
  if (config.subjects !== 'toolgate' || context === undefined) return output;
  const readTool = config.prefix === undefined ? 'read_file' : `${config.prefix}__read_file`;
  return withholdFromOutput(remoteName, output, policyWithholds(context, readTool)) ?? output;
}
