import { type FunctionTool, RunContext } from '@openai/agents';
import { defineTool, type Tool, ToolgateError } from '@toolgate/core';
import { z } from 'zod';
import type { GatedAgentsTools } from './agents-tools.js';
import { actAs, type GatedSet } from './current-tools.js';

/** What {@link agentTool} makes a tool of when given Agents' own `agent.asTool(…)`. */
export interface AsToolOptions {
  /**
   * The Agents function tool to put behind the gate: what `agent.asTool({ toolName,
   * toolDescription })` returns (or any Agents function tool). The toolgate tool takes its name and
   * description; each call of it runs this tool's `invoke`, and only then.
   */
  // biome-ignore lint/suspicious/noExplicitAny: any function tool, whatever its context and result types
  asTool: FunctionTool<any, any, any>;
  /**
   * The inner agent's own gated tools (`agentsTools` of its handle): in each call, the agent's calls
   * through them are recorded after the lineage `agent.derived` with `via: { kind: 'tool', tool,
   * callId }`. Their `runOptions` reach the inner run as Agents' parent run config.
   */
  tools?: GatedAgentsTools;
  /**
   * The zod object of the tool's parameters, each property `.describe()`d: required when `asTool`
   * was given `parameters` of its own (the gate validates and records the call with it); absent,
   * the tool takes Agents' `{ input: string }`.
   */
  input?: z.ZodObject;
}

/** The toolgate tool behind {@link AsToolOptions}: see {@link agentTool}. */
export function asToolTool(options: AsToolOptions, set: GatedSet | undefined): Tool {
  const { asTool, tools } = options;
  const name = asTool.name;
  const properties = Object.keys((asTool.parameters as { properties?: object }).properties ?? {});
  if (options.input === undefined && (properties.length !== 1 || properties[0] !== 'input'))
    throw new ToolgateError(
      'INVALID_DEFINITION',
      `agentTool "${name}": its "asTool" takes parameters (${properties.join(', ')}) other than Agents' ` +
        `{ input }: pass the same parameters as a zod object with every property described, as "input"`,
    );
  return defineTool({
    name,
    description: asTool.description,
    input: options.input ?? z.object({ input: z.string().describe('What to ask the agent.') }),
    // its effects are the agent's calls through the gate: a replay runs it again on replayed tools
    composite: true,
    run: async (parameters, context) => {
      const runContext = new RunContext();
      if (set !== undefined) {
        const handle = set.handle.actingFor(context.agent, {
          kind: 'tool',
          tool: name,
          callId: context.callId,
        });
        actAs(runContext, set, handle);
        // asTool runs on a fork of the context when it has parameters of its own: the fork acts too
        const forkable = runContext as unknown as { _forkWithToolInput?: (input: unknown) => object };
        const fork = forkable._forkWithToolInput?.bind(runContext);
        if (fork !== undefined)
          forkable._forkWithToolInput = (input) => {
            const forked = fork(input);
            actAs(forked, set, handle);
            return forked;
          };
      }
      const json = JSON.stringify(parameters);
      const output: unknown = await asTool.invoke(runContext, json, {
        toolCall: { type: 'function_call', callId: context.callId, name, arguments: json },
        signal: context.signal,
        ...(tools === undefined ? {} : { parentRunConfig: tools.runOptions }),
      });
      return typeof output === 'string' ? output : JSON.stringify(output ?? null);
    },
  });
}
