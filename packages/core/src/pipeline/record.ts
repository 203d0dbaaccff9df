import type { ContentPart } from '../content.js';
import { messageOf } from '../errors.js';
import { type JsonValue, toJsonValue } from '../json.js';
import type { PolicyRequest } from '../policy.js';
import {
  noopRecorder,
  type PolicyDecidedRecord,
  type Recorder,
  type ToolCalledRecord,
  type ToolErrorData,
  type ToolReturnedRecord,
} from '../recorder.js';
import { type Decided, decisionSentence } from './decide.js';

/** One call as the record station sees it: where its records go, and what names it. */
export interface RecordedCall {
  readonly recorder: Recorder;
  readonly callId: string;
  readonly agent: string;
  readonly tool: string;
}

/** The record station's first record: the call as the gate received it, before any check. */
export function recordCalled(call: RecordedCall, parameters: unknown): void | Promise<void> {
  if (call.recorder === noopRecorder) return;
  const record: ToolCalledRecord = {
    callId: call.callId,
    agent: call.agent,
    tool: call.tool,
    parameters: recordable(parameters),
  };
  return call.recorder.toolCalled(record);
}

/** What a `policy.decided` record says its verdict judged: the subject (`null`: unknown), client, agent path. */
export type Judged = Pick<PolicyDecidedRecord, 'subject' | 'client' | 'agentPath'>;

/** What policy judged of `request`, as a record holds it. */
export function judgedOf(request: PolicyRequest): Judged {
  const judged: Judged = { subject: request.subject ?? null };
  if (request.client !== undefined) judged.client = request.client;
  if (request.agentPath !== undefined) judged.agentPath = request.agentPath;
  return judged;
}

/**
 * The record station's second record: policy's verdict and the answer to an `ask`, as data, with
 * what the verdict judged ({@link judgedOf} the request), so the ledger can be judged again.
 */
export function recordDecided(
  call: RecordedCall,
  decided: Decided,
  judged: Judged,
  sentence?: string,
): void | Promise<void> {
  if (call.recorder === noopRecorder) return;
  const { verdict, answer } = decided;
  const record: PolicyDecidedRecord = {
    callId: call.callId,
    agent: call.agent,
    tool: call.tool,
    decision: decided.allowed ? 'allow' : 'deny',
    verdict,
    ...(answer === undefined ? {} : { answer }),
    reason: sentence ?? decisionSentence(verdict, answer),
    ...judged,
  };
  return call.recorder.policyDecided(record);
}

/** How a call ended, as the record station writes it and the caller receives it. */
export type Ending =
  | {
      callId: string;
      tool: string;
      isError: false;
      output: JsonValue;
      content?: ContentPart[];
      durationMs: number;
    }
  | { callId: string; tool: string; isError: true; error: ToolErrorData; durationMs: number };

/** The record station's last record: how the call ended; resolves with what the recorder returned (a receipt, maybe). */
export function recordReturned(call: RecordedCall, ending: Ending): unknown {
  if (call.recorder === noopRecorder) return;
  const record: ToolReturnedRecord = { ...ending, agent: call.agent };
  return call.recorder.toolReturned(record);
}

/** Holds one call's records so a concurrent batch can be recorded in the model's order. */
export class BufferedRecorder implements Recorder {
  readonly #writes: ((recorder: Recorder) => unknown)[] = [];
  toolCalled(record: ToolCalledRecord) {
    this.#writes.push((recorder) => recorder.toolCalled(record));
  }
  policyDecided(record: PolicyDecidedRecord) {
    this.#writes.push((recorder) => recorder.policyDecided(record));
  }
  toolReturned(record: ToolReturnedRecord) {
    this.#writes.push((recorder) => recorder.toolReturned(record));
  }
  /** Writes the held records, in order, to `recorder`. */
  async flushTo(recorder: Recorder): Promise<void> {
    for (const write of this.#writes) await write(recorder);
  }
}

function recordable(parameters: unknown): JsonValue {
  try {
    return toJsonValue(parameters ?? {});
  } catch (error) {
    return { unrecordable: messageOf(error) };
  }
}
