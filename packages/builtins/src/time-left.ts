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
