import { ToolgateError } from '@toolgate/core';
import { deadlineGraceMs, defaultCallTimeoutMs } from '../timeouts.js';

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

/**
 * A call's time: until the caller's deadline (the gate's budget) and a moment past it — the gate
 * ends the call at its deadline and cancels it, keeping the session; this timer is the backstop —
 * within the server's configured `timeoutMs` when it has one. The default only for a call that
 * brings no deadline.
 */
export function callTimeoutMs(configured: number | undefined, deadline: number | undefined): number {
  if (deadline === undefined || !Number.isFinite(deadline)) return configured ?? defaultCallTimeoutMs;
  const remaining = Math.max(1, Math.ceil(deadline - Date.now())) + deadlineGraceMs;
  return configured === undefined ? remaining : Math.min(configured, remaining);
}
