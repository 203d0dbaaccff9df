import type { Clock } from './chain-state.js';

/**
 * A deterministic clock for reproducible ledgers: `start`, then `stepMs` later on every call.
 *
 * @example
 * const store = new MemoryStore({ clock: steppingClock('2026-01-01T00:00:00.000Z') });
 */
export function steppingClock(start: string | Date = '2026-01-01T00:00:00.000Z', stepMs = 1): Clock {
  let next = new Date(start).getTime();
  return () => {
    const now = new Date(next);
    next += stepMs;
    return now;
  };
}
