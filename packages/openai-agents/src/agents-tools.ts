import type { FunctionTool, RunConfig, RunContext } from '@openai/agents';
import type { AgentHandle, ToolDescription } from '@toolgate/core';
import type { ExternalDecision } from '@toolgate/core/internal';
import { AskedCalls } from './asked-calls.js';
import { type GatedSet, handleOf, rememberSet } from './current-tools.js';
import { type AnyAgent, enterTurn } from './handoffs.js';
import { modelOutput } from './model-output.js';
import { gatedErrorFormatter } from './run-options.js';
import { SerialLane } from './serial-lane.js';
import { type Strictness, strictTool } from './strict-tool.js';
import { warnUngatedAgentTools } from './ungated-warning.js';

/** What {@link agentsTools} may be given. */
export interface AgentsToolsOptions {
  /**
   * Who decided, as recorded in the ledger when Agents' approval flow (`state.approve` /
   * `state.reject`) answers a call policy sent to `ask`: `…; approved by <approvedBy>`. Default
   * `"openai-agents"`; pass the reviewer's name when you know it.
   */
  approvedBy?: string;
  /**
   * `'auto'` (default): each tool in Agents' strict mode when its schema allows it, otherwise
   * non-strict (see {@link GatedAgentsTools.strictness}). `false`: every tool non-strict.
   */
  strict?: 'auto' | false;
}

/** The run settings the gated tools need from Agents: pass them to `run()`, a `Runner` or `asTool({ runConfig })`. */
export type GatedRunOptions = Required<
  Pick<RunConfig, 'toolNotFoundBehavior' | 'toolErrorFormatter' | 'toolExecution'>
>;

/** What {@link agentsTools} returns. */
export interface GatedAgentsTools {
  /** One Agents function tool per granted tool that exists, for `new Agent({ tools })`. */
  readonly tools: FunctionTool<unknown, never, unknown>[];
  /**
   * The run settings that keep the gate's guarantees (spread them into `run(agent, input, …)`):
   * a call to a tool the agent was not given comes back to the model as a `{ code, message }`
   * result and is recorded as refused (instead of Agents' `ModelBehaviorError` ending the turn);
   * a rejected approval is recorded; and the calls of one model turn start one at a time, in the
   * model's order, so the ledger's order is the model's.
   */
  readonly runOptions: GatedRunOptions;
  /** For each tool: whether Agents got its schema in strict mode, and Agents' reason when not. */
  readonly strictness: Readonly<Record<string, Strictness>>;
  /**
   * Reads the calls a run state is waiting on approval for (its interruptions, with their
   * arguments) back into these tools, and returns the state: call it on a state restored with
   * `RunState.fromString` — in another process, with tools made there — before you `approve` /
   * `reject` and `run` it again, so a rejection is recorded like one answered in the process that
   * asked. The pending asks live in the state, not in this process.
   *
   * @example
   * const state = gated.resume(await RunState.fromString(agent, saved));
   * state.reject(state.getInterruptions()[0]);
   * await run(agent, state, gated.runOptions);
   */
  resume<State extends { getInterruptions(): readonly { rawItem: unknown }[] }>(state: State): State;
}

/**
 * A granted {@link AgentHandle} as OpenAI Agents JS function tools: exactly the handle's granted
 * tools, each call through the gate (grant, validation, policy, output caps, the ledger).
 * Policy's `ask` becomes Agents' `needsApproval` interruption; the answer given with
 * `state.approve` / `state.reject` is recorded as the decision. The run's abort signal reaches the
 * tool's `context.signal`. Errors reach the model as the JSON text of `{ code, message }`.
 *
 * @example
 * const { tools, runOptions } = await agentsTools(gate.forAgent({ name: 'teller', tools: ['oracle'] }));
 * const agent = new Agent({ name: 'teller', instructions: 'Read the omens.', tools });
 * const result = await run(agent, 'What do the stones say?', runOptions);
 */
export async function agentsTools(
  handle: AgentHandle,
  options: AgentsToolsOptions = {},
): Promise<GatedAgentsTools> {
  const approvedBy = options.approvedBy ?? 'openai-agents';
  const lane = new SerialLane();
  const asked = new AskedCalls(handle, lane, approvedBy);
  const set: GatedSet = { handle, lane, asked };
  const strictness: Record<string, Strictness> = {};
  const tools: FunctionTool<unknown, never, unknown>[] = [];
  for (const description of await handle.toolSchemas()) {
    const built = gatedTool(description, {
      set,
      lane,
      asked,
      approvedBy,
      strict: options.strict ?? 'auto',
    });
    tools.push(built.tool);
    strictness[description.name] = built.strictness;
  }
  const names = new Set(Object.keys(strictness));
  const gated: GatedAgentsTools = {
    tools,
    strictness,
    resume: (state) => {
      asked.restore(state.getInterruptions(), names);
      return state;
    },
    runOptions: {
      toolNotFoundBehavior: 'return_error_to_model',
      toolErrorFormatter: gatedErrorFormatter(set),
      toolExecution: { maxFunctionToolConcurrency: 1 },
    },
  };
  rememberSet(gated, set);
  return gated;
}

/** What Agents hands a tool's `execute` beside the input (its `ToolCallDetails`, not exported by name). */
interface CallDetails {
  toolCall?: { callId?: string };
  signal?: AbortSignal;
}

interface Shared {
  set: GatedSet;
  lane: SerialLane;
  asked: AskedCalls;
  approvedBy: string;
  strict: 'auto' | false;
}

function gatedTool(description: ToolDescription, shared: Shared) {
  const name = description.name;
  return strictTool(
    description.inputSchema,
    {
      name,
      description: description.description,
      isEnabled: async ({ runContext, agent }: { runContext: RunContext; agent: AnyAgent }) => {
        warnUngatedAgentTools(agent);
        await enterTurn(runContext, agent, shared.set);
        await shared.asked.sweep(runContext, handleOf(runContext, shared.set));
        return true;
      },
      needsApproval: async (runContext: RunContext, parameters: unknown, callId?: string) => {
        const handle = handleOf(runContext, shared.set);
        // an ask put to Agents' approval flow is recorded as it is put (policy.asked), once a call
        const pending =
          callId === undefined || shared.asked.has(callId)
            ? undefined
            : { pending: { id: callId, askedOf: shared.approvedBy } };
        const check = await handle.check(name, parameters, pending);
        if (check.status !== 'ask') return false;
        if (callId !== undefined) shared.asked.remember(callId, name, parameters);
        return true;
      },
      execute: (parameters: unknown, runContext?: RunContext, details?: CallDetails) =>
        shared.lane.run(async () => {
          const callId = details?.toolCall?.callId;
          if (callId !== undefined) shared.asked.forget(callId);
          const decision = approvalOf(runContext, name, callId, shared.approvedBy);
          const result = await handleOf(runContext, shared.set).callTool(name, parameters, {
            ...(details?.signal ? { signal: details.signal } : {}),
            ...(decision ? { decision } : {}),
          });
          return modelOutput(result);
        }),
      // Refusals and failures come back from the gate as results, never thrown; what can throw is a
      // failing recorder, and a run must never go on silently unrecorded: Agents ends it instead.
      errorFunction: null,
    },
    shared.strict,
  );
}

/** Agents' approval of this call, as the gate's external decision; undefined when Agents approved nothing. */
function approvalOf(
  runContext: RunContext | undefined,
  tool: string,
  callId: string | undefined,
  by: string,
): ExternalDecision | undefined {
  if (runContext === undefined || callId === undefined) return undefined;
  return runContext.isToolApproved({ toolName: tool, callId }) === true ? { approved: true, by } : undefined;
}
