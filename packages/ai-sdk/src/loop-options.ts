import type { JsonValue } from '@toolgate/core';
import type { PrepareStepFunction, ToolApprovalConfiguration, ToolCallRepairFunction, ToolSet } from 'ai';
import { answeredApprovals } from './approvals.js';
import { refusalText } from './model-output.js';
import { sessionOf } from './session.js';
import { type AppToolApproval, composedToolApproval } from './tool-approval.js';

/** The AI SDK's runtime context (its `Context`: a record). */
type RuntimeContext = Record<string, unknown>;

/** What {@link aiSdkLoopOptions} may be given besides the tools. */
export interface AiSdkLoopSettings<TOOLS extends ToolSet = ToolSet> {
  /**
   * The app's own AI SDK `toolApproval` (function or per-tool object form, e.g. from
   * `@ai-sdk/policy-opa`), composed with the gate's: for each call the stricter answer wins
   * (denied over a user approval over approved), and a call the gate refuses is refused whatever
   * the app says.
   */
  toolApproval?: ToolApprovalConfiguration<TOOLS, RuntimeContext>;
}

/** The `generateText` / `streamText` options {@link aiSdkLoopOptions} returns. */
export interface AiSdkLoopOptions<TOOLS extends ToolSet = ToolSet> {
  /**
   * AI SDK 7's `toolApproval`, as a function: a gated call policy says `ask` for becomes a user
   * approval request carrying policy's reason; composed with the app's own `toolApproval`.
   */
  toolApproval: ToolApprovalConfiguration<TOOLS, RuntimeContext>;
  /**
   * Records a call the SDK cannot parse — a tool that is not in the set (not granted, or unknown),
   * arguments that are not JSON — through the gate (refused: CAPABILITY_VIOLATION, UNKNOWN_TOOL,
   * INVALID_PARAMETERS), and tells the model `{ code, message }` as the tool's error. The turn goes on.
   */
  repairToolCall: ToolCallRepairFunction<TOOLS>;
  /**
   * At the first step of a run resumed after an approval, records each call whose approval was
   * rejected (the SDK never calls the tool for those) as refused by the approver.
   */
  prepareStep: PrepareStepFunction<TOOLS>;
}

const stopped = AbortSignal.abort();

/**
 * The options that keep every call in the ledger, for the tools {@link aiSdkTools} made (alone, or
 * spread into one set with native AI SDK tools): spread them into `generateText` / `streamText`.
 * Pass your own `toolApproval` here, not to `generateText`, so it composes with the gate's. A
 * refused call never runs: it is recorded with a signal that is already aborted, so even a policy
 * that changed to allow cannot start it. Chain your own `prepareStep` after this one if you have one.
 *
 * @example
 * const tools = { ...(await aiSdkTools(handle)), weather };
 * await generateText({ model, tools, ...aiSdkLoopOptions(tools, { toolApproval }), messages });
 */
export function aiSdkLoopOptions<TOOLS extends ToolSet>(
  tools: TOOLS,
  settings: AiSdkLoopSettings<TOOLS> = {},
): AiSdkLoopOptions<TOOLS> {
  const session = sessionOf(tools);
  if (session === undefined) {
    throw new TypeError(
      'aiSdkLoopOptions: these tools were not made by aiSdkTools(handle); pass the object aiSdkTools returned (or a set it is spread into)',
    );
  }
  const { queue } = session;
  return {
    toolApproval: composedToolApproval(
      session,
      settings.toolApproval as AppToolApproval | undefined,
    ) as unknown as ToolApprovalConfiguration<TOOLS, RuntimeContext>,
    repairToolCall: async ({ toolCall, error }) => {
      // a native tool's bad arguments are the SDK's to report; the gate answers for every other name
      if (toolCall.toolName in tools && !session.gated.has(toolCall.toolName)) return null;
      const parameters = parsedInput(toolCall.input);
      const result = await queue.run({ name: toolCall.toolName, parameters, options: { signal: stopped } });
      // The SDK hands the model `String(error)`: make that the gate's structured error, as JSON.
      if (result.isError && error instanceof Error) {
        const text = refusalText(result.error);
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
        if (call.approved || !session.gated.has(call.toolName) || recorded.has(call.toolCallId)) continue;
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
