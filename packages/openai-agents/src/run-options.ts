import type { ToolErrorFormatter } from '@openai/agents';
import type { AgentHandle } from '@toolgate/core';
import { currentSet, type GatedSet, handleOf } from './current-tools.js';
import { modelCall, parsedArguments } from './model-calls.js';
import { errorText } from './model-output.js';

/**
 * Agents' hook for the two calls it answers without running a tool, turned into gate calls that
 * are recorded and never run anything, through the gated tools of the agent whose turn it is (after
 * a handoff, the handed-to agent's, when it was given gated tools):
 *
 * - `tool_not_found` (the model called a tool the agent was not given): a name outside the grant
 *   goes to the handle, which refuses it with CAPABILITY_VIOLATION before any resolver is touched.
 *   A granted name the agent was not given (a tool that did not exist when the tools were built,
 *   or another agent's call in a handoff) goes to a child handle granted nothing, so it is refused
 *   too, never run. Agents does not pass the call's arguments to this hook; the adapter saw them
 *   when Agents checked the model's calls (see `watchModelCalls`), and the record carries them.
 * - `approval_rejected` (`state.reject` on a call policy sent to `ask`, without a message): the
 *   call goes to the gate with the rejection as its external decision, so the ledger records
 *   `not approved by …` (see {@link AskedCalls}).
 */
export function gatedErrorFormatter(own: GatedSet): ToolErrorFormatter {
  const unoffered = new WeakMap<AgentHandle, AgentHandle>();
  return async ({ kind, toolName, callId, runContext }) => {
    // after a handoff, the handed-to agent's own tools answer for its calls
    const set = currentSet(runContext, own);
    const { lane, asked } = set;
    const handle = handleOf(runContext, set);
    if (kind === 'tool_not_found') {
      let refusing = handle;
      if (handle.manifest.tools.includes(toolName)) {
        refusing = unoffered.get(handle) ?? handle.narrow([], `${handle.manifest.name}/unoffered`);
        unoffered.set(handle, refusing);
      }
      // the arguments the model sent, which Agents does not pass here (see watchModelCalls)
      const call = modelCall(runContext, callId);
      const parameters = call?.name === toolName ? parsedArguments(call.arguments) : undefined;
      const result = await lane.run(() => refusing.callTool(toolName, parameters));
      return result.isError ? errorText(result.error) : undefined;
    }
    const result = await asked.rejected(runContext, callId, handle);
    return result?.isError ? errorText(result.error) : undefined;
  };
}
