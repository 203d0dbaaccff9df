import type { PolicyDecidedRecord, ToolReturnedRecord } from '@toolgate/core';
import { canonicalOf, type RecordedCall, withoutNote } from './recording.js';

/** Where a replayed record differs from the recording, and how, in words. */
export interface Difference {
  readonly seq: number;
  readonly message: string;
}

/** How the replay's policy decision differs from the recorded one; undefined when it does not. */
export function decisionDifference(
  recorded: RecordedCall,
  record: PolicyDecidedRecord,
): Difference | undefined {
  const { callId: _callId, agent: _agent, ...decided } = record;
  const now = canonicalOf(decided);
  const payload = recorded.decided?.payload as { callId?: string } | undefined;
  if (!payload) {
    return {
      seq: recorded.called.seq,
      message: `policy decided ${now}, but the recording has no decision for this call`,
    };
  }
  const { callId: _was, ...rest } = withoutNote(payload);
  const was = canonicalOf(rest);
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
