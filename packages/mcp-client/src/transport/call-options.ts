import { ToolgateError } from '@toolgate/core';

/** What {@link McpConnection.call} may be given. */
export interface CallOptions {
  signal?: AbortSignal;
  /** When the caller stops waiting, in ms since the epoch: the call's timeout ends there. */
  deadline?: number;
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
}

/** The caller's own reason when it is a ToolgateError (CANCELLED, TIMEOUT), else CANCELLED. */
export function cancelledCall(server: string, tool: string, reason: unknown): ToolgateError {
  if (ToolgateError.is(reason)) return reason;
  return new ToolgateError(
    'CANCELLED',
    `the call to "${tool}" on MCP server "${server}" was cancelled by its caller; the server was told to stop`,
  );
}
