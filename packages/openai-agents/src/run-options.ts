import type { ToolErrorFormatter } from '@openai/agents';
import type { AgentHandle } from '@toolgate/core';
import type { AskedCalls } from './asked-calls.js';
import { errorText } from './model-output.js';
import type { SerialLane } from './serial-lane.js';

/**
 * Agents' hook for the two calls it answers without running a tool, turned into gate calls that
 * are recorded and never run anything:
 *
 * - `tool_not_found` (the model called a tool the agent was not given): a name outside the grant
 *   goes to the handle, which refuses it with CAPABILITY_VIOLATION before any resolver is touched.
 *   A granted name the agent was not given (a tool that did not exist when the tools were built,
 *   or another agent's call in a handoff) goes to a child handle granted nothing, so it is refused
 *   too, never run. Agents does not pass the call's arguments to this hook: the record has none.
 * - `approval_rejected` (`state.reject` on a call policy sent to `ask`, without a message): the
 *   call goes to the gate with the rejection as its external decision, so the ledger records
 *   `not approved by …` (see {@link AskedCalls}).
 */
export function gatedErrorFormatter(
  handle: AgentHandle,
  lane: SerialLane,
  asked: AskedCalls,
): ToolErrorFormatter {
  let unoffered: AgentHandle | undefined;
  return async ({ kind, toolName, callId, runContext }) => {
    if (kind === 'tool_not_found') {
      let refusing = handle;
      if (handle.manifest.tools.includes(toolName)) {
        unoffered ??= handle.narrow([], `${handle.manifest.name}/unoffered`);
        refusing = unoffered;
      }
      const result = await lane.run(() => refusing.callTool(toolName));
      return result.isError ? errorText(result.error) : undefined;
    }
    const result = await asked.rejected(runContext, callId);
    return result?.isError ? errorText(result.error) : undefined;
  };
}
