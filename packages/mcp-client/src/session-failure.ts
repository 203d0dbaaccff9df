import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { ToolgateError } from '@toolgate/core';
import { messageOf } from '@toolgate/core/internal';
import { capErrorText } from './error-text.js';

/** What {@link sessionFailure} reads of the session that failed. */
export interface FailedSession {
  /** Why the stream broke, when its transport said so. */
  fault: string | undefined;
  /** True once the SDK client saw the session close. */
  closed: boolean;
  /** The tail of a stdio server's stderr. */
  stderr: string;
}

/**
 * The ToolgateError for a failure of `server` during `during` (e.g. `a call to "x"`), and whether
 * the session must be dropped: TIMEOUT (dropped) when it did not answer in time; TOOL_FAILED (kept)
 * when the server refused the request itself on a healthy session; else TRANSPORT_FAILED (dropped),
 * with the fault or the error text and the end of its stderr. A ToolgateError passes through.
 */
export function sessionFailure(
  server: string,
  session: FailedSession,
  during: string,
  error: unknown,
  context: { started: boolean; timeoutMs: number; maxErrorChars: number },
): { failure: ToolgateError; drop: boolean } {
  if (ToolgateError.is(error)) return { failure: error, drop: false };
  const named = `MCP server "${server}"`;
  const code = error instanceof McpError ? error.code : undefined;
  if (code === ErrorCode.RequestTimeout && session.fault === undefined) {
    const failure = new ToolgateError(
      'TIMEOUT',
      `${named} did not answer ${during} within ${context.timeoutMs} ms; ` +
        `it was stopped${context.started ? ', and the next call starts a new session' : ''}`,
      { cause: error },
    );
    return { failure, drop: true };
  }
  const errorText = () => capErrorText(messageOf(error), context.maxErrorChars);
  const remoteRefusal = code !== undefined && code !== ErrorCode.ConnectionClosed;
  if (remoteRefusal && session.fault === undefined && !session.closed && during !== 'starting it') {
    const failure = new ToolgateError('TOOL_FAILED', `${named} refused ${during}: ${errorText()}`, {
      cause: error,
    });
    return { failure, drop: false };
  }
  const why = session.fault ?? errorText();
  const stderr = session.stderr.trim() ? `; its stderr ended with: ${session.stderr.trim().slice(-500)}` : '';
  const failure = new ToolgateError(
    'TRANSPORT_FAILED',
    `${named} failed during ${during}: ${why}${stderr}${context.started ? '; the next call reconnects' : ''}`,
    { cause: error },
  );
  return { failure, drop: true };
}
