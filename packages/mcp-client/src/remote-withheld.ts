import { hostSubject, policyWithholds, withholdFromOutput } from '@toolgate/builtins/internal';
import { type JsonValue, type ToolContext, ToolgateError, type ToolOutput } from '@toolgate/core';
import type { McpServerConfig } from './server-config.js';

/**
 * What a toolgate pattern tool served by `toolgate-mcp` (`subjects: 'toolgate'`) returned, with
 * every path policy withholds from this call taken out and counted, as the same tool does
 * in-process (see `policyWithholds` in `@toolgate/builtins`). The server has read those files; what
 * it read of them reaches neither the model nor the ledger. Any other server's output is passed on
 * as it is: its shape is the server's own, so toolgate cannot tell which paths it names (a rule
 * on `paths` judges only the parameters its `subjects` mapping declares).
 *
 * toolgate-mcp's `fetch` follows redirects on the server, beyond this gate's reach: the hops are
 * judged here only after the fact, from the `redirects` it reports. A response that came through a
 * hop policy does not allow is withheld (PERMISSION_DENIED naming the hop); the request did reach
 * that host. Run `fetch` in-process to have every hop judged before it is contacted.
 */
export function withholdRemotePaths(
  config: McpServerConfig,
  remoteName: string,
  output: JsonValue | ToolOutput,
  context: ToolContext | undefined,
): JsonValue | ToolOutput {
  if (config.subjects !== 'toolgate' || context === undefined) return output;
  if (remoteName === 'fetch') return withholdRedirected(output, context);
  const readTool = config.prefix === undefined ? 'read_file' : `${config.prefix}__read_file`;
  return withholdFromOutput(remoteName, output, policyWithholds(context, readTool)) ?? output;
}

function withholdRedirected(output: JsonValue | ToolOutput, context: ToolContext): JsonValue | ToolOutput {
  const redirects = (output as { redirects?: unknown }).redirects;
  if (!Array.isArray(redirects)) return output;
  redirects.forEach((hop: unknown, index) => {
    const url = String(hop);
    let verdict: ReturnType<ToolContext['judge']>;
    try {
      verdict = context.judge(hostSubject(url));
    } catch {
      verdict = { decision: 'deny', reason: `${JSON.stringify(url)} is not a URL toolgate can judge` };
    }
    if (verdict.decision === 'allow') return;
    throw new ToolgateError(
      'PERMISSION_DENIED',
      `permission denied: the MCP server followed redirect ${index + 1} of this request to ${url}, which ` +
        `policy does not allow (${verdict.reason}); the server sent the request there, but its response is ` +
        'withheld. Fetch in-process to have each hop judged before it is contacted',
    );
  });
  return output;
}
