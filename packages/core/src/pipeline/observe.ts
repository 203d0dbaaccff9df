import type { PolicyVerdict } from '../policy.js';
import type { ToolErrorData } from '../recorder.js';
import type { Answer } from './decide.js';

/** One call as an observer first sees it: when it arrives at the gate, before any check. */
export interface ObservedCall {
  callId: string;
  agent: string;
  tool: string;
  /** What the caller is granted, as written (names or patterns). */
  granted: readonly string[];
}

/** Where a recorder put a call's last record: the run and the sequence number in its ledger. */
export interface RecordReceipt {
  runId: string;
  seq: number;
}

/** How an observed call ended. */
export interface ObservedEnding {
  isError: boolean;
  /** The refusal or failure, when `isError`. */
  error?: ToolErrorData;
  durationMs: number;
  /** Where the call's `tool.returned` landed, when the recorder says (a `LedgerRecorder` does). */
  ledger?: RecordReceipt;
}

/** What an observer follows of one call, from its decision to its end. */
export interface CallObservation {
  /** Policy's verdict and the answer to an `ask` (the same data as `policy.decided`). */
  decided?(decided: { verdict: PolicyVerdict; answer?: Answer; allowed: boolean }): void;
  /** The call ended (after its records were written). Called exactly once per observed call. */
  ended(ending: ObservedEnding): void;
}

/**
 * Watches every call of a gate (a tracer, a meter): told when a call arrives — in the caller's
 * async context, so a span can nest under the caller's — and, through what it returns, how the
 * call was decided and how it ended. It only watches: what it throws is ignored, and it changes
 * nothing about the call.
 */
export interface CallObserver {
  callStarted(call: ObservedCall): CallObservation | undefined;
}

/** Starts observing a call; an observer that throws observes nothing. */
export function observeCall(
  observer: CallObserver | undefined,
  call: ObservedCall,
): CallObservation | undefined {
  if (observer === undefined) return undefined;
  try {
    return observer.callStarted(call) ?? undefined;
  } catch {
    return undefined;
  }
}

/** Tells an observation what policy decided; what it throws is ignored. */
export function observeDecided(
  observation: CallObservation | undefined,
  decided: { verdict: PolicyVerdict; answer?: Answer; allowed: boolean },
): void {
  try {
    observation?.decided?.(decided);
  } catch {
    // an observer watches; it never changes the call
  }
}

/** Tells an observation how the call ended; what it throws is ignored. */
export function observeEnded(observation: CallObservation | undefined, ending: ObservedEnding): void {
  try {
    observation?.ended(ending);
  } catch {
    // an observer watches; it never changes the call
  }
}

/** The receipt a recorder returned for `tool.returned`, if it returned one. */
export function receiptOf(value: unknown): RecordReceipt | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { runId, seq } = value as { runId?: unknown; seq?: unknown };
  return typeof runId === 'string' && typeof seq === 'number' ? { runId, seq } : undefined;
}

/**
 * Once a call's `tool.returned` is written (`recorded`: what the recorder returned, or its
 * promise), tells the call's observation how it ended, with the record's place in the ledger when
 * the recorder says; resolves to `ending`, which the call returns.
 */
export function observeRecorded<
  Ending extends { isError: boolean; error?: ToolErrorData; durationMs: number },
>(observation: CallObservation | undefined, ending: Ending, recorded: unknown): Ending | Promise<Ending> {
  if (observation === undefined) return recorded instanceof Promise ? recorded.then(() => ending) : ending;
  const observed = (receipt: unknown) => {
    const ledger = receiptOf(receipt);
    observeEnded(observation, {
      isError: ending.isError,
      ...(ending.isError && ending.error !== undefined ? { error: ending.error } : {}),
      durationMs: ending.durationMs,
      ...(ledger === undefined ? {} : { ledger }),
    });
    return ending;
  };
  return recorded instanceof Promise ? recorded.then(observed) : observed(recorded);
}
