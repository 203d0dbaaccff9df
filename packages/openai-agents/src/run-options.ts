import type { ToolErrorFormatter } from '@openai/agents';
import type { AgentHandle } from '@toolgate/core';
import type { AskedCall } from './agents-tools.js';
import { errorText } from './model-output.js';
import type { SerialLane } from './serial-lane.js';

interface FormatterState {
  lane: SerialLane;
  asked: Map<string, AskedCall>;
  approvedBy: string;
  /** The names of the tools the agent was given. */
  offered: ReadonlySet<string>;
}

/**
 * Agents' hook for the two calls it answers without running a tool, turned into gate calls that
 * are recorded and never run anything:
 *
 * - `tool_not_found` (the model called a tool the agent was not given): a name outside the grant
 *   goes to the handle, which refuses it with CAPABILITY_VIOLATION before any resolver is touched.
 *   A granted name the agent was not given (a tool that did not exist when the tools were built,
 *   or another agent's call in a handoff) goes to a child handle granted nothing, so it is refused
 *   too, never run. Agents does not pass the call's arguments to this hook: the record has none.
 * - `approval_rejected` (`state.reject` on a call policy sent to `ask`): the call goes to the gate
 *   with the rejection as its external decision, so the ledger records `not approved by …`.
 */
export function gatedErrorFormatter(handle: AgentHandle, state: FormatterState): ToolErrorFormatter {
  let unoffered: AgentHandle | undefined;
  return async ({ kind, toolName, callId, runContext }) => {
    if (kind === 'tool_not_found') {
      const refusing = handle.manifest.tools.includes(toolName)
        ? (unoffered ??= handle.narrow([], `${handle.manifest.name}/unoffered`))
        : handle;
      const result = await state.lane.run(() => refusing.callTool(toolName));
      return result.isError ? errorText(result.error) : undefined;
    }
    const asked = state.asked.get(callId);
    if (asked === undefined || asked.tool !== toolName) return undefined;
    state.asked.delete(callId);
    const check = await handle.check(asked.tool, asked.parameters);
    // Only an `ask` takes a decision; anything else would run or refuse on its own, and a rejected
    // call must not run. Agents answers the model with its default rejection message then.
    if (check.status !== 'ask') return undefined;
    const reason = runContext.getRejectionMessage(toolName, callId, { functionTool: true });
    const result = await state.lane.run(() =>
      handle.callTool(asked.tool, asked.parameters, {
        decision: { approved: false, by: state.approvedBy, ...(reason ? { reason } : {}) },
      }),
    );
    return result.isError ? errorText(result.error) : undefined;
  };
}
