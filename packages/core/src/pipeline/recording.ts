import type { ToolgateError } from '../errors.js';
import type { PolicyRequest } from '../policy.js';
import type { Decided } from './decide.js';
import type { Judged } from './record.js';

/** A call as a {@link Recording} is asked about it: its id (absent for a pre-flight check) and request. */
export interface RecordingQuery {
  /** The call's id; absent when `AgentHandle.check` asks before any call is made. */
  callId?: string;
  request: PolicyRequest;
}

/**
 * A decision as a {@link Recording} supplies it: the verdict and answer (data, what the replay acts
 * on) and, when recorded, the words the run gave people and the model — never read for meaning, only
 * handed on, so a replay says what the run said even after core words its sentences otherwise.
 */
export interface RecordedDecision extends Pick<Decided, 'verdict' | 'answer'> {
  /** The recorded `policy.decided` sentence: the replay's record carries it as it was. */
  reason?: string;
  /** The error the recorded call was refused with: the replay refuses with it, to the letter. */
  refusal?: ToolgateError;
  /** What the recorded decision judged (its subject, client, agent path), recorded again as it was. */
  judged?: Judged;
}

/**
 * The gate's one replay seam: a recorded run supplying what the live run's stations produced, so a
 * replay needs neither the policy, nor an approver, nor the tools. With a recording, the decide
 * station takes the recorded verdict and answer, the dispatch station the recorded output (outputs
 * were capped when recorded, so only errors are capped again, at `errorChars`), and `durationMs`
 * the recorded duration. The ledger's `ReplaySession` is one.
 */
export interface Recording {
  /** The verdict and answer recorded for this call (whether it ran follows from them), and its words. */
  decision(query: RecordingQuery): RecordedDecision;
  /**
   * The recorded output of this call — JSON, or a `toolResult(…)` — or its recorded failure, thrown
   * (rejected) as the ToolgateError it was.
   */
  output(query: Required<RecordingQuery>): unknown;
  /** The recorded `durationMs` of this call; undefined when none was recorded (the clock says). */
  duration(callId: string): number | undefined;
}
