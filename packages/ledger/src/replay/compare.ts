import type { PolicyDecidedRecord, ToolReturnedRecord } from '@toolgate/core/internal';
import { recordedDecision } from './recorded-decision.js';
import { canonicalOf, type RecordedCall, withoutNote } from './recording.js';

/** Where a replayed record differs from the recording, and how, in words. */
export interface Difference {
  readonly seq: number;
  readonly message: string;
}

/**
 * How the replay's policy decision differs from the recorded one, as data (what happened, the
 * verdict, the answer; the sentence in `reason` is for people and not compared, so rewording it
 * leaves a replay intact); undefined when it does not.
 */
export function decisionDifference(
  recorded: RecordedCall,
  record: PolicyDecidedRecord,
): Difference | undefined {
  const now = canonicalOf(recordedDecision(record as unknown as Record<string, unknown>));
  const payload = recorded.decided?.payload as Record<string, unknown> | undefined;
  if (!payload) {
    return {
      seq: recorded.called.seq,
      message: `policy decided ${now}, but the recording has no decision for this call`,
    };
  }
  const was = canonicalOf(recordedDecision(withoutNote(payload)));
  if (was === now) return undefined;
  return { seq: recorded.decided!.seq, message: `policy decided ${now} instead of ${was}` };
}

/**
 * How the replay's result differs from the recorded one; undefined when it does not, or when the
 * recording has no result for the call.
 */
export function returnDifference(recorded: RecordedCall, record: ToolReturnedRecord): Difference | undefined {
  if (!recorded.returned) return undefined;
  const { callId: _callId, agent: _agent, ...returned } = record;
  const { callId: _was, ...rest } = withoutNote(recorded.returned.payload as { callId?: string });
  const current: Record<string, unknown> = { ...returned };
  // a ledger written before durations were recorded has none to compare
  if (!('durationMs' in rest)) delete current.durationMs;
  const was = canonicalOf(rest);
  const now = canonicalOf(current);
  if (was === now) return undefined;
  return { seq: recorded.returned.seq, message: `the call returned ${now} instead of ${was}` };
}
