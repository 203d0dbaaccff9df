/**
 * How long before its call's deadline a tool stops its own work, so what it says about the stop (a
 * command's output marked `timedOut`, a search's TIMEOUT naming its pattern) still reaches the caller.
 */
export const deadlineMarginMs = 1000;

/**
 * The milliseconds a tool's own work may take under its call's `deadline` (ms since the epoch, as
 * `context.deadline`): up to a moment ({@link deadlineMarginMs}) before it. `undefined` when the call
 * has no deadline, or no more than that moment left (the gate's own timeout then ends the call).
 */
export function timeBeforeDeadline(deadline: number): number | undefined {
  const left = Math.floor(deadline - Date.now()) - deadlineMarginMs;
  return Number.isFinite(left) && left > 0 ? left : undefined;
}

/**
 * The time of work that has no signal to stop it (a search, a fetch), as `{ timeoutMs }`: until a
 * moment before its call's deadline, so the work's own TIMEOUT (naming what it was doing) reaches
 * the caller; with less left, until the deadline itself, so it never outlives its call. Empty for a
 * call with no deadline (the environment's own time applies).
 */
export function untilDeadline(deadline: number): { timeoutMs?: number } {
  if (!Number.isFinite(deadline)) return {};
  return { timeoutMs: timeBeforeDeadline(deadline) ?? Math.max(1, Math.ceil(deadline - Date.now())) };
}
