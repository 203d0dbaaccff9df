import { exactGrant, type Grant, ToolgateError } from '@toolgate/core';

/**
 * The grant of an MCP server: exactly the tools it exposes, for the agent its callers are known
 * as. A tool outside it is UNKNOWN_TOOL naming the server and what it serves (its `tools/list`),
 * because a remote caller has no manifest to edit.
 */
export function exposedGrant(options: { agent: string; tools: readonly string[]; server: string }): Grant {
  const exact = exactGrant(options.agent, options.tools);
  return {
    agent: exact.agent,
    granted: exact.granted,
    allows: (tool) => exact.allows(tool),
    narrow: (tools, agent) => exact.narrow(tools, agent),
    refusal(tool) {
      const served = exact.granted.length === 0 ? 'nothing' : exact.granted.join(', ');
      return new ToolgateError(
        'UNKNOWN_TOOL',
        `MCP server "${options.server}" does not serve a tool named ${JSON.stringify(tool)}; ` +
          `it serves: ${served} (its tools/list)`,
      );
    },
  };
}
