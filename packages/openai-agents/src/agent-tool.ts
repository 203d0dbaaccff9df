import { type Agent, RunContext, run } from '@openai/agents';
import { defineTool, type Tool, ToolgateError } from '@toolgate/core';
import { z } from 'zod';
import type { GatedAgentsTools } from './agents-tools.js';
import { type AsToolOptions, asToolTool } from './as-tool.js';
import { actAs, setOf } from './current-tools.js';

/** What {@link agentTool} makes a tool of. */
export interface AgentToolOptions {
  /** The Agents agent each call runs, as a run of its own. */
  // biome-ignore lint/suspicious/noExplicitAny: any agent, whatever its context and output types (as Agents' own handoff lists)
  agent: Agent<any, any>;
  /** The tool's name: what the calling agent is granted, policy names and the model calls. */
  name: string;
  /** What the model is told the tool does. */
  description: string;
  /**
   * The agent's own gated tools (`agentsTools` of its handle, usually one narrowed from the
   * caller's): in each call, the agent's calls through them are recorded after the lineage
   * `agent.derived` with `via: { kind: 'tool', tool: name, callId }`, the call's id in the ledger.
   */
  tools?: GatedAgentsTools;
  /** At most this many turns of the agent a call (Agents' `maxTurns`; Agents' default when absent). */
  maxTurns?: number;
}

/**
 * An Agents agent as a toolgate tool: what `agent.asTool()` does, but through the gate. Register it
 * beside your other tools and grant it like any tool; each call of it is then granted, judged by
 * policy (an `ask` goes to Agents' approval flow like any gated call), recorded and replayable, and
 * the agent's own gated calls in that call are recorded as its lineage children. The model sends
 * `{ input }`; the tool runs the agent on it and returns its final output as text. The caller's
 * Agents context is not passed into the agent's run, and the agent cannot stop for an approval of
 * its own: a call whose run is interrupted fails with TOOL_FAILED, naming the calls that waited.
 * In a replay, register it in the replay's registry too, so the agent runs again on the replayed
 * tools and its calls are replayed with the rest.
 *
 * Given `{ asTool: agent.asTool({ toolName, toolDescription }), tools }` instead, it puts Agents'
 * own agent tool behind the gate the same way: named and described as `asTool` is, each call
 * granted, judged, recorded with its arguments and output, and only then run by `asTool.invoke`
 * (the inner run gets `tools.runOptions` as its parent run config).
 *
 * @example
 * const seerHandle = lead.narrow(['oracle'], 'seer');
 * const seer = new Agent({ name: 'seer', instructions: 'Read omens.', tools: (await agentsTools(seerHandle)).tools });
 * registry.register(agentTool({ agent: seer, name: 'ask_seer', description: 'Asks the seer.', tools: seerTools }));
 */
export function agentTool(options: AgentToolOptions | AsToolOptions): Tool {
  const { tools } = options;
  const set = tools === undefined ? undefined : setOf(tools);
  const named = 'asTool' in options ? options.asTool.name : options.name;
  if (tools !== undefined && set === undefined)
    throw new ToolgateError(
      'INVALID_DEFINITION',
      `agentTool "${named}": "tools" must be what agentsTools(handle) returned for the agent it runs`,
    );
  if ('asTool' in options) return asToolTool(options, set);
  const { agent, name, description, maxTurns } = options;
  return defineTool({
    name,
    description,
    input: z.object({ input: z.string().describe(`What to ask ${agent.name}.`) }),
    // its effects are the agent's calls through the gate: a replay runs it again on replayed tools
    composite: true,
    run: async ({ input }, context) => {
      const runContext = new RunContext();
      if (set !== undefined)
        actAs(
          runContext,
          set,
          set.handle.actingFor(context.agent, { kind: 'tool', tool: name, callId: context.callId }),
        );
      const result = await run(agent, input, {
        ...(tools?.runOptions ?? {}),
        context: runContext,
        signal: context.signal,
        ...(maxTurns === undefined ? {} : { maxTurns }),
      });
      if (result.interruptions.length > 0) {
        const waiting = result.interruptions.map((item) => JSON.stringify(item.name)).join(', ');
        throw new ToolgateError(
          'TOOL_FAILED',
          `agent "${agent.name}" stopped to wait for an approval of ${waiting}, which a call of ` +
            `"${name}" cannot wait for: grant it tools policy allows, or hand the run off to it instead`,
        );
      }
      const output = result.finalOutput;
      return typeof output === 'string' ? output : JSON.stringify(output ?? null);
    },
  });
}
