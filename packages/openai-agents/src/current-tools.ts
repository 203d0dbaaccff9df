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

/**
 * The handle a set's calls go through in one run when its agent acts for another (handed the run
 * by it, or called by it as a tool): {@link AgentHandle.actingFor}, so the ledger records that
 * lineage before the first of those calls.
 */
const acting = new WeakMap<object, Map<GatedSet, AgentHandle>>();

/** Marks `set` as the current agent's in the run of `runContext`. */
export function markCurrent(runContext: object, set: GatedSet): void {
  current.set(runContext, set);
}

/** The current agent's gated set in the run of `runContext`, or `fallback`. */
export function currentSet(runContext: object, fallback: GatedSet): GatedSet {
  return current.get(runContext) ?? fallback;
}

/** Makes `handle` (the set's agent acting for another) the one the set's calls go through in this run. */
export function actAs(runContext: object, set: GatedSet, handle: AgentHandle): void {
  let handles = acting.get(runContext);
  if (handles === undefined) {
    handles = new Map();
    acting.set(runContext, handles);
  }
  handles.set(set, handle);
}

/** The handle the set's calls go through in the run of `runContext`: acting for another, or its own. */
export function handleOf(runContext: object | undefined, set: GatedSet): AgentHandle {
  return (runContext === undefined ? undefined : acting.get(runContext)?.get(set)) ?? set.handle;
}

/** The gated set behind each `agentsTools` result, for {@link agentTool}. */
const sets = new WeakMap<object, GatedSet>();

/** Remembers the gated set behind an `agentsTools` result. */
export function rememberSet(result: object, set: GatedSet): void {
  sets.set(result, set);
}

/** The gated set behind an `agentsTools` result; undefined for anything else. */
export function setOf(result: object): GatedSet | undefined {
  return sets.get(result);
}
