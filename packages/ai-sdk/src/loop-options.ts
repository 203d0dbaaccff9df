import type { JsonValue } from '@toolgate/core';
import type { PrepareStepFunction, ToolCallRepairFunction, ToolSet } from 'ai';
import { answeredApprovals } from './approvals.js';
import { sessions } from './session.js';

/** The `generateText` / `streamText` options {@link aiSdkLoopOptions} returns. */
export interface AiSdkLoopOptions {
  /**
   * Records a call the SDK cannot parse — a tool that is not in the set (not granted, or unknown),
   * arguments that are not JSON — through the gate (refused: CAPABILITY_VIOLATION, UNKNOWN_TOOL,
   * INVALID_PARAMETERS), and tells the model `{ code, message }` as the tool's error. The turn goes on.
   */
  repairToolCall: ToolCallRepairFunction<ToolSet>;
  /**
   * At the first step of a run resumed after an approval, records each call whose approval was
   * rejected (the SDK never calls the tool for those) as refused by the approver.
   */
  prepareStep: PrepareStepFunction<ToolSet>;
}

const stopped = AbortSignal.abort();

/**
 * The options that keep every call in the ledger, for the tools {@link aiSdkTools} made: spread them
 * into `generateText` / `streamText`. A refused call never runs: it is recorded with a signal that is
 * already aborted, so even a policy that changed to allow cannot start it. Chain your own
 * `prepareStep` after this one if you have one.
 *
 * @example
 * await generateText({ model, tools, ...aiSdkLoopOptions(tools), messages });
 */
export function aiSdkLoopOptions(tools: object): AiSdkLoopOptions {
  const session = sessions.get(tools);
  if (session === undefined) {
    throw new TypeError(
      'aiSdkLoopOptions: these tools were not made by aiSdkTools(handle); pass the object aiSdkTools returned',
    );
  }
  const { queue } = session;
  return {
    repairToolCall: async ({ toolCall, error }) => {
      const parameters = parsedInput(toolCall.input);
      const result = await queue.run({ name: toolCall.toolName, parameters, options: { signal: stopped } });
      // The SDK hands the model `String(error)`: make that the gate's structured error, as JSON.
      if (result.isError && error instanceof Error) {
        const text = JSON.stringify({ code: result.error.code, message: result.error.message });
        error.message = text;
        Object.defineProperty(error, 'toString', { value: () => text, configurable: true });
      }
      return null;
    },
    prepareStep: async ({ stepNumber, initialMessages }) => {
      if (stepNumber !== 0) return undefined;
      const recorded = session.denialsRecorded;
      // the messages the run was started with: the SDK adds its denial results after them
      for (const call of answeredApprovals(initialMessages)) {
        if (call.approved || !(call.toolName in tools) || recorded.has(call.toolCallId)) continue;
        recorded.add(call.toolCallId);
        const decision = {
          approved: false,
          by: session.approvedBy,
          ...(call.reason === undefined ? {} : { reason: call.reason }),
        };
        await queue.run({
          name: call.toolName,
          parameters: call.input,
          options: { signal: stopped, decision },
        });
      }
      return undefined;
    },
  };
}

function parsedInput(text: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
}
