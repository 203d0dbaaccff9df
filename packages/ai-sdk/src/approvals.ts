import type { ExternalDecision } from '@toolgate/core/internal';
import type { ModelMessage } from 'ai';

/** A call the AI SDK's approval flow decided: the call as the model made it, and the answer. */
export interface ApprovedCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
  approved: boolean;
  reason?: string;
}

/**
 * The approval answers in the last message (a `tool` message), matched to their requests and tool
 * calls in the history: what the SDK acts on when a run resumes after an approval.
 */
export function answeredApprovals(messages: readonly ModelMessage[]): ApprovedCall[] {
  const last = messages.at(-1);
  if (last?.role !== 'tool' || typeof last.content === 'string') return [];
  const calls = new Map<string, { toolName: string; input: unknown }>();
  const requests = new Map<string, string>();
  for (const message of messages) {
    if (message.role !== 'assistant' || typeof message.content === 'string') continue;
    for (const part of message.content) {
      if (part.type === 'tool-call')
        calls.set(part.toolCallId, { toolName: part.toolName, input: part.input });
      else if (part.type === 'tool-approval-request') requests.set(part.approvalId, part.toolCallId);
    }
  }
  const answered: ApprovedCall[] = [];
  for (const part of last.content) {
    if (part.type !== 'tool-approval-response') continue;
    const toolCallId = requests.get(part.approvalId);
    const call = toolCallId === undefined ? undefined : calls.get(toolCallId);
    if (toolCallId === undefined || call === undefined) continue;
    answered.push({
      toolCallId,
      ...call,
      approved: part.approved === true,
      ...(typeof part.reason === 'string' && part.reason !== '' ? { reason: part.reason } : {}),
    });
  }
  return answered;
}

/** The decision for one call from the approval answers, if the SDK's approval flow answered it. */
export function decisionFor(
  messages: readonly ModelMessage[],
  toolCallId: string,
  by: string,
): ExternalDecision | undefined {
  const answer = answeredApprovals(messages).find((call) => call.toolCallId === toolCallId);
  if (answer === undefined) return undefined;
  return { approved: answer.approved, by, ...(answer.reason === undefined ? {} : { reason: answer.reason }) };
}
