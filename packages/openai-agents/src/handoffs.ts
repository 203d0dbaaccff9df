import { type Agent, getHandoff, type RunContext } from '@openai/agents';
import type { LineageVia } from '@toolgate/core/internal';
import { actAs, type GatedSet, handleOf, markCurrent } from './current-tools.js';
import { lastCallOf, watchModelCalls } from './model-calls.js';

/** Any Agents agent, whatever its context and output types. */
// biome-ignore lint/suspicious/noExplicitAny: Agents types its own handoff lists and run hooks with `AnyAgent`
export type AnyAgent = Agent<any, any>;

/** A handoff Agents made in a run, waiting for the handed-to agent's first turn. */
interface PendingHandoff {
  from: GatedSet;
  to: AnyAgent;
  via: LineageVia;
}

/** The agents whose handoffs are watched, with the gated set each holds. */
const watched = new WeakMap<AnyAgent, GatedSet>();
/** The gated set each agent's turns held, by run. */
const ranWith = new WeakMap<object, WeakMap<AnyAgent, GatedSet>>();
/** The handoff each run made last, until the handed-to agent's turn starts. */
const pending = new WeakMap<object, PendingHandoff>();
/** The turn a set is entering in a run, so the tools of one agent record its handoff once. */
const entering = new WeakMap<object, Map<GatedSet, Promise<void>>>();

/**
 * Starts an agent's turn for its gated set: called by each gated tool's `isEnabled`, which Agents
 * asks when the agent's turn starts, with the run and the agent. It watches the run's model calls
 * and the agent's handoffs, marks the set as the current one, and, when the run was just handed to
 * this agent by an agent holding gated tools, makes the set act for that agent in this run
 * ({@link AgentHandle.actingFor}) and records the lineage (`agent.derived` with `via: { kind:
 * 'handoff', tool: 'transfer_to_…', callId }`) before the turn's model call, so every call the
 * handed-to agent makes through the gate follows it in the ledger.
 */
export function enterTurn(runContext: RunContext, agent: AnyAgent, set: GatedSet): Promise<void> {
  watchModelCalls(runContext);
  watchHandoffs(agent, set);
  markCurrent(runContext, set);
  let agents = ranWith.get(runContext);
  if (agents === undefined) {
    agents = new WeakMap();
    ranWith.set(runContext, agents);
  }
  agents.set(agent, set);
  const handoff = pending.get(runContext);
  if (handoff !== undefined && handoff.to === agent) {
    pending.delete(runContext);
    const handle = set.handle.actingFor(handleOf(runContext, handoff.from).manifest.name, handoff.via);
    actAs(runContext, set, handle);
    const recorded = set.lane.run(() => handle.recordLineage());
    let sets = entering.get(runContext);
    if (sets === undefined) {
      sets = new Map();
      entering.set(runContext, sets);
    }
    sets.set(set, recorded);
    return recorded;
  }
  return entering.get(runContext)?.get(set) ?? Promise.resolve();
}

/** Listens, once an agent, for the handoffs it makes (Agents' `agent_handoff` event, told synchronously). */
function watchHandoffs(agent: AnyAgent, set: GatedSet): void {
  if (watched.has(agent)) return;
  watched.set(agent, set);
  agent.on('agent_handoff', (runContext, next) => {
    const tool = handoffTool(agent, next);
    const callId = tool === undefined ? undefined : lastCallOf(runContext, tool);
    pending.set(runContext, {
      // the set this agent held in this run (an agent given to several sets, in other runs)
      from: ranWith.get(runContext)?.get(agent) ?? set,
      to: next,
      via: { kind: 'handoff', tool: tool ?? `transfer to ${next.name}`, ...(callId ? { callId } : {}) },
    });
  });
}

/** The tool name of `from`'s handoff to `to` (`transfer_to_clerk`, or the handoff's own name). */
function handoffTool(from: AnyAgent, to: AnyAgent): string | undefined {
  for (const entry of from.handoffs) {
    const handoff = getHandoff(entry);
    if (handoff.agent === to) return handoff.toolName;
  }
  return undefined;
}
