import type { AgentHandle, ToolDescription, ToolResult } from '@toolgate/core';
import { modelJson, plainSchema } from '@toolgate/core/internal';
import { jsonSchema, type ModelMessage, type Tool, type ToolExecutionOptions, tool } from 'ai';
import { decisionFor } from './approvals.js';
import { CallQueue } from './call-queue.js';
import { modelOutputOf } from './model-output.js';
import { type GateSession, sessions } from './session.js';

/** What {@link aiSdkTools} may be given. */
export interface AiSdkToolsOptions {
  /**
   * Who decides a call policy says `ask` for. `'ai-sdk'` (the default): the tool asks for the AI
   * SDK's tool approval (a `tool-approval-request` part), and the answer the app sends back
   * (`tool-approval-response`) is passed to the gate as the call's decision and recorded.
   * `'gate'`: no approval request; the gate's own approver decides (without one, `ask` is a deny).
   */
  approvals?: 'ai-sdk' | 'gate';
  /** Who an AI SDK approval answer is recorded as coming from. Default `"ai-sdk tool approval"`. */
  approvedBy?: string;
  /**
   * Who a denial by the app's own `toolApproval` (given to {@link aiSdkLoopOptions}) is recorded as
   * coming from. Default `"app toolApproval"`.
   */
  appApprovedBy?: string;
}

/** An AI SDK tool whose calls go through the gate: its output is the gate's {@link ToolResult}. */
export type GatedTool = Tool<unknown, ToolResult>;

/** The tools {@link aiSdkTools} returns: one AI SDK tool per granted tool, by name. */
export type GatedToolSet = Record<string, GatedTool>;

/**
 * The handle's granted tools (exactly those that exist) as an AI SDK `ToolSet` for `generateText`,
 * `streamText` or an agent. Every call goes through the gate: grant, validation, policy, dispatch,
 * caps and the recorder. The calls of one step run one at a time, in the model's order, so a tool
 * that is not parallel-safe never overlaps another and a recorded run replays byte for byte. A
 * refusal or failure reaches the model as the JSON text of `{ code, message }` (`error-text`, as
 * for a call the SDK could not parse); an output with its keys in canonical order (the same bytes
 * live and replayed); content parts (images …) as the SDK's multi-part output, never a text
 * rendering beside a JSON output; the SDK's abort signal reaches the tool's `context.signal`.
 * Pass {@link aiSdkLoopOptions} too, so calls the SDK itself would reject (an ungranted or unknown
 * tool, arguments that are not JSON) and rejected approvals are recorded as well.
 *
 * @example
 * const tools = await aiSdkTools(gate.forAgent({ name: 'scribe', tools: ['read_file'] }));
 * const result = await generateText({ model, tools, ...aiSdkLoopOptions(tools), prompt, stopWhen: stepCountIs(5) });
 */
export async function aiSdkTools(
  handle: AgentHandle,
  options: AiSdkToolsOptions = {},
): Promise<GatedToolSet> {
  const approvals = options.approvals ?? 'ai-sdk';
  if (approvals !== 'ai-sdk' && approvals !== 'gate') {
    throw new TypeError(`aiSdkTools: approvals must be "ai-sdk" or "gate", not ${JSON.stringify(approvals)}`);
  }
  const descriptions = await handle.toolSchemas();
  const session: GateSession = {
    handle,
    queue: new CallQueue(handle),
    approvedBy: options.approvedBy ?? 'ai-sdk tool approval',
    appApprovedBy: options.appApprovedBy ?? 'app toolApproval',
    askTheSdk: approvals === 'ai-sdk',
    gated: new Set(descriptions.map((description) => description.name)),
    denialsRecorded: new Set(),
    askedRecorded: new Set(),
  };
  const tools: GatedToolSet = {};
  for (const description of descriptions) {
    const gated = gatedTool(session, description);
    sessions.set(gated, session);
    tools[description.name] = gated;
  }
  sessions.set(tools, session);
  return tools;
}

function gatedTool(session: GateSession, description: ToolDescription): GatedTool {
  const { queue } = session;
  const name = description.name;
  return tool({
    description: description.description,
    // plain JSON Schema, no validator: the gate validates, so a bad call is recorded and answered
    inputSchema: jsonSchema<unknown>(
      plainSchema(description.inputSchema) as Parameters<typeof jsonSchema>[0],
    ),
    execute: async (
      input: unknown,
      { abortSignal, messages, toolCallId }: ToolExecutionOptions<unknown>,
    ): Promise<ToolResult> => {
      const decision = decisionFor(messages as ModelMessage[], toolCallId, session.approvedBy);
      const result = await queue.run({
        name,
        parameters: input,
        options: {
          ...(abortSignal === undefined ? {} : { signal: abortSignal }),
          ...(decision === undefined ? {} : { decision }),
        },
      });
      // keys in canonical order, as a replay hands the output back from the ledger
      return result.isError ? result : { ...result, output: modelJson(result.output) };
    },
    toModelOutput: ({ output }: { output: ToolResult }) => modelOutputOf(output),
  }) as GatedTool;
}
