import { type AgentHandle, defineTool, type Tool } from '@toolgate/core';
import { z } from 'zod';
import { type AiSdkToolsOptions, aiSdkTools, type GatedToolSet } from './ai-sdk-tools.js';
import { type AiSdkLoopOptions, aiSdkLoopOptions } from './loop-options.js';

/** What {@link agentTool}'s `run` gets for one call: the model's request, and the subagent's gated tools for this call. */
export interface AgentToolCall {
  /** What the calling model asked the subagent (the tool's `input`). */
  input: string;
  /** The subagent's tools for this call: its calls through them follow the call's lineage. */
  tools: GatedToolSet;
  /** `aiSdkLoopOptions(tools)`, to spread into `generateText` / `streamText`. */
  loopOptions: AiSdkLoopOptions<GatedToolSet>;
  /** Aborted when the call is cancelled or its time runs out: pass it as `abortSignal`. */
  abortSignal: AbortSignal;
}

/** What {@link agentTool} makes a tool of. */
export interface AgentToolOptions {
  /** The tool's name: what the calling agent is granted, policy names and the model calls. */
  name: string;
  /** What the model is told the tool does. */
  description: string;
  /** The subagent's handle, usually narrowed from the caller's (`lead.narrow(['read_file'], 'critic')`). */
  handle: AgentHandle;
  /** Runs the subagent for one call (typically `generateText({ model, tools, ...loopOptions, prompt: input, abortSignal })`) and returns its answer. */
  run(call: AgentToolCall): Promise<string>;
  /** Options for the subagent's `aiSdkTools`. */
  toolsOptions?: AiSdkToolsOptions;
}

/**
 * A subagent as a toolgate tool: register it, grant it to the calling agent, and each call of it is
 * granted, judged by policy, recorded and replayed like any call. In each call the subagent's
 * tools act for the caller (core's `handle.actingFor`): its calls through them are recorded after
 * `agent.derived` with `via: { kind: 'tool', tool: name, callId }` (the call's id in the ledger), so
 * they read as that call's children. The tool is `composite`: registered in a replay's registry
 * too, a replay runs it again on the replayed tools.
 *
 * @example
 * registry.register(agentTool({
 *   name: 'ask_critic',
 *   description: 'Asks the critic to review a file.',
 *   handle: lead.narrow(['read_file'], 'critic'),
 *   run: async ({ input, tools, loopOptions, abortSignal }) =>
 *     (await generateText({ model, tools, ...loopOptions, prompt: input, abortSignal, stopWhen: stepCountIs(5) })).text,
 * }));
 */
export function agentTool(options: AgentToolOptions): Tool {
  const { name, description, handle, run, toolsOptions } = options;
  return defineTool({
    name,
    description,
    input: z.object({ input: z.string().describe(`What to ask ${handle.manifest.name}.`) }),
    // its effects are the subagent's calls through the gate: a replay runs it again on replayed tools
    composite: true,
    run: async ({ input }, context) => {
      const acting = handle.actingFor(context.agent, { kind: 'tool', tool: name, callId: context.callId });
      const tools = await aiSdkTools(acting, toolsOptions);
      return run({ input, tools, loopOptions: aiSdkLoopOptions(tools), abortSignal: context.signal });
    },
  });
}
