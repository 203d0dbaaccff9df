import type { GenericToolApprovalFunction, ModelMessage, ToolApprovalStatus, ToolSet } from 'ai';
import { decisionFor } from './approvals.js';
import type { GateSession } from './session.js';

/** An app's own AI SDK `toolApproval`: the function form, or the per-tool object form. */
export type AppToolApproval =
  | ((options: {
      toolCall: { toolCallId: string; toolName: string; input: unknown };
      tools: ToolSet | undefined;
      toolsContext: never;
      runtimeContext: never;
      messages: ModelMessage[];
    }) => ToolApprovalStatus | PromiseLike<ToolApprovalStatus>)
  | Record<
      string,
      | ToolApprovalStatus
      | ((
          input: never,
          options: {
            toolCallId: string;
            messages: ModelMessage[];
            toolContext: never;
            runtimeContext: never;
          },
        ) => ToolApprovalStatus | PromiseLike<ToolApprovalStatus>)
    >;

type Normal = Exclude<ToolApprovalStatus, string | undefined>;
type ApprovalOptions = Parameters<GenericToolApprovalFunction<ToolSet, never, never>>[0];

const strictness: Record<Normal['type'], number> = {
  'not-applicable': 0,
  approved: 1,
  'user-approval': 2,
  denied: 3,
};

/**
 * The `toolApproval` function the loop options hand the SDK: for a gated tool, the gate's `ask`
 * becomes a user approval carrying policy's reason, composed with the app's own answer (the
 * stricter wins); a call the gate allows gets the app's answer; a call the gate refuses runs into
 * the gate (so its refusal is recorded and the model reads `{ code, message }`), whatever the app
 * says, so the gate's deny is never widened. A native tool gets the app's answer, or its own
 * `needsApproval`. A call the app denies is recorded through the gate as refused by the app.
 */
export function composedToolApproval(
  session: GateSession,
  appApproval: AppToolApproval | undefined,
): (options: ApprovalOptions) => Promise<Normal> {
  return async (options) => {
    const { toolCall } = options;
    const app = await appAnswer(appApproval, options);
    if (!session.gated.has(toolCall.toolName)) return app;
    if (!session.askTheSdk) {
      // the gate's approver answers ask; the app may still be stricter
      return app.type === 'denied' ? await recordAppDenial(session, toolCall, app) : app;
    }
    // a gate ask the SDK will put to the app (not one the app denies, nor one answered already) is
    // recorded as it is put (policy.asked), once a call
    const putNow =
      app.type !== 'denied' &&
      !session.askedRecorded.has(toolCall.toolCallId) &&
      decisionFor(options.messages, toolCall.toolCallId, session.approvedBy) === undefined;
    const check = await session.handle.check(
      toolCall.toolName,
      toolCall.input,
      putNow ? { pending: { id: toolCall.toolCallId, askedOf: session.approvedBy } } : undefined,
    );
    if (putNow && check.status === 'ask') session.askedRecorded.add(toolCall.toolCallId);
    if (check.status === 'refused') return { type: 'not-applicable' };
    const gate: Normal =
      check.status === 'ask' ? { type: 'user-approval', reason: check.reason } : { type: 'not-applicable' };
    const stricter = strictness[app.type] > strictness[gate.type] ? app : gate;
    if (stricter.type === 'user-approval' && gate.type === 'user-approval' && app.type === 'user-approval') {
      return app.reason === undefined
        ? gate
        : { type: 'user-approval', reason: `${gate.reason}; ${app.reason}` };
    }
    if (stricter.type === 'denied') return await recordAppDenial(session, toolCall, stricter);
    return stricter;
  };
}

async function appAnswer(
  appApproval: AppToolApproval | undefined,
  options: ApprovalOptions,
): Promise<Normal> {
  const { toolCall, tools, messages } = options;
  if (typeof appApproval === 'function') return normal(await appApproval(options as never));
  const entry =
    appApproval === undefined
      ? undefined
      : Object.hasOwn(appApproval, toolCall.toolName)
        ? appApproval[toolCall.toolName]
        : undefined;
  const context = {
    toolCallId: toolCall.toolCallId,
    messages,
    toolContext: undefined as never,
    runtimeContext: options.runtimeContext,
  };
  if (typeof entry === 'function') return normal(await entry(toolCall.input as never, context));
  if (entry !== undefined) return normal(entry);
  // a native tool's own needsApproval: the SDK reads it only when toolApproval is not a function
  const tool =
    tools !== undefined && Object.hasOwn(tools, toolCall.toolName) ? tools[toolCall.toolName] : undefined;
  const needs = tool?.needsApproval;
  if (needs === undefined) return { type: 'not-applicable' };
  const asks =
    typeof needs === 'function'
      ? await needs(toolCall.input as never, {
          toolCallId: toolCall.toolCallId,
          messages,
          context: undefined as never,
        })
      : needs;
  return asks ? { type: 'user-approval' } : { type: 'not-applicable' };
}

function normal(status: ToolApprovalStatus): Normal {
  if (status === undefined) return { type: 'not-applicable' };
  return typeof status === 'string' ? ({ type: status } as Normal) : status;
}

const stopped = AbortSignal.abort();

/**
 * The SDK never runs a call it denied: record it through the gate as refused by the app (once per
 * call: the SDK asks again when it checks approvals carried over from a previous run).
 */
async function recordAppDenial(
  session: GateSession,
  toolCall: { toolCallId: string; toolName: string; input: unknown },
  denial: Normal,
): Promise<Normal> {
  if (session.denialsRecorded.has(toolCall.toolCallId)) return denial;
  session.denialsRecorded.add(toolCall.toolCallId);
  const reason = denial.reason;
  await session.queue.run({
    name: toolCall.toolName,
    parameters: toolCall.input,
    options: {
      signal: stopped,
      decision: { approved: false, by: session.appApprovedBy, ...(reason === undefined ? {} : { reason }) },
    },
  });
  return denial;
}
