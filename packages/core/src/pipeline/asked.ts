import { messageOf } from '../errors.js';
import { type JsonValue, toJsonValue } from '../json.js';
import type { PolicyVerdict } from '../policy.js';
import { noopRecorder, type PolicyAskedRecord, type Recorder } from '../recorder.js';

/** An `ask` put to an approver that answers later (a framework's approval UI): how the caller names it. */
export interface PendingAsk {
  /** The caller's id of the call waiting for the answer (the framework's tool call id). */
  id: string;
  /** Who was asked (`"openai-agents"`, `"ai-sdk tool approval"`). */
  askedOf: string;
}

/** What {@link recordAsked} records. */
export interface AskedCall {
  recorder: Recorder;
  agent: string;
  tool: string;
  parameters: unknown;
  verdict: PolicyVerdict;
  pending: PendingAsk;
}

/**
 * Records an `ask` when it is put (`policy.asked`), before anyone answers it: the call's answer is
 * recorded later, with the call, as its `policy.decided`. A recorder without `policyAsked` records
 * nothing.
 */
export function recordAsked(asked: AskedCall): void | Promise<void> {
  const { recorder } = asked;
  if (recorder === noopRecorder || recorder.policyAsked === undefined) return;
  const record: PolicyAskedRecord = {
    askId: asked.pending.id,
    agent: asked.agent,
    tool: asked.tool,
    parameters: recordable(asked.parameters),
    verdict: asked.verdict,
    askedOf: asked.pending.askedOf,
  };
  return recorder.policyAsked(record);
}

function recordable(parameters: unknown): JsonValue {
  try {
    return toJsonValue(parameters ?? {});
  } catch (error) {
    return { unrecordable: messageOf(error) };
  }
}
