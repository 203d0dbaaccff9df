import type { AgentHandle } from '@toolgate/core';
import type { AskedCalls } from './asked-calls.js';
import type { SerialLane } from './serial-lane.js';

/** One set of gated tools as the run-wide hooks need it: its handle, lane and asked calls. */
export interface GatedSet {
  handle: AgentHandle;
  lane: SerialLane;
  asked: AskedCalls;
}

/**
 * The gated set of the agent whose turn it is, by run: Agents asks each tool of an agent whether it
 * is enabled when that agent's turn starts, so after a handoff the handed-to agent's set is the
 * current one, and the run's hooks (made by the first agent's set) answer for it.
 */
const current = new WeakMap<object, GatedSet>();

/** Marks `set` as the current agent's in the run of `runContext`. */
export function markCurrent(runContext: object, set: GatedSet): void {
  current.set(runContext, set);
}

/** The current agent's gated set in the run of `runContext`, or `fallback`. */
export function currentSet(runContext: object, fallback: GatedSet): GatedSet {
  return current.get(runContext) ?? fallback;
}
