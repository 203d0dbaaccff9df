import {
  type JsonValue,
  ToolgateError,
  type ToolgateErrorCode,
  type ToolOutput,
  toolResult,
} from '@toolgate/core';
import { restoreLoneSurrogates, surrogatesReplacedField } from '../well-formed.js';
import type { RecordedCall } from './recording.js';

type ReturnedPayload = {
  isError?: boolean;
  output?: JsonValue;
  error?: { code: string; message: string };
  durationMs?: unknown;
  [surrogatesReplacedField]?: unknown;
};

function returnedOf(recorded: RecordedCall | undefined): ReturnedPayload | undefined {
  return recorded?.returned?.payload as ReturnedPayload | undefined;
}

/** The error a recorded call failed with, as it was thrown; undefined when it did not fail. */
export function recordedError(recorded: RecordedCall): ToolgateError | undefined {
  const payload = returnedOf(recorded);
  const restored =
    payload &&
    (restoreLoneSurrogates(payload as JsonValue, payload[surrogatesReplacedField]) as ReturnedPayload);
  if (!restored?.isError || !restored.error) return undefined;
  return new ToolgateError(restored.error.code as ToolgateErrorCode, restored.error.message);
}

/** The `durationMs` recorded for a call; undefined when none was recorded. */
export function recordedDuration(recorded: RecordedCall | undefined): number | undefined {
  const payload = returnedOf(recorded);
  return typeof payload?.durationMs === 'number' ? payload.durationMs : undefined;
}

/**
 * What a recorded call returned, as the recorded run saw it (lone surrogates and all: the recorder
 * then notes them again); its error thrown when it failed. REPLAY_DIVERGED when the recording ends
 * before the call returned.
 */
export function recordedResult(recorded: RecordedCall): JsonValue | ToolOutput {
  const returned = returnedOf(recorded);
  if (!returned) {
    throw new ToolgateError(
      'REPLAY_DIVERGED',
      `the recording ends before the call at seq ${recorded.called.seq} returned; nothing to replay`,
    );
  }
  if (returned.isError) throw recordedError(recorded)!;
  const restored = restoreLoneSurrogates(returned as JsonValue, returned[surrogatesReplacedField]) as {
    output?: JsonValue;
    content?: unknown;
  };
  // Recorded content parts come back as they were recorded: the same text, the same base64 bytes.
  if (Array.isArray(restored.content)) {
    return toolResult({ output: restored.output ?? null, content: restored.content });
  }
  return restored.output ?? null;
}
