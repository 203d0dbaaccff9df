import type { RunContext } from '@openai/agents';
import type { AgentHandle, ToolResult } from '@toolgate/core';
import { parsedArguments } from './model-calls.js';
import type { SerialLane } from './serial-lane.js';

/** A call that policy sent to `ask`, kept from Agents' approval check until it is answered. */
interface AskedCall {
  tool: string;
  parameters: unknown;
}

/**
 * The calls of one set of gated tools waiting for Agents' approval flow, by Agents' call id, so a
 * rejection — which Agents answers without running the tool — still reaches the ledger with the
 * call's parameters, as the gate's call with a `not approved` decision.
 */
export class AskedCalls {
  readonly #calls = new Map<string, AskedCall>();
  readonly #handle: AgentHandle;
  readonly #lane: SerialLane;
  readonly #by: string;

  constructor(handle: AgentHandle, lane: SerialLane, by: string) {
    this.#handle = handle;
    this.#lane = lane;
    this.#by = by;
  }

  /** Keeps a call Agents is about to interrupt the run for. */
  remember(callId: string, tool: string, parameters: unknown): void {
    this.#calls.set(callId, { tool, parameters });
  }

  /**
   * Keeps the asked calls a run state holds (its interruptions: each call with its arguments), so a
   * state serialised in one process and answered in another records its rejections. Only this set's
   * tools, and only calls policy still sends to `ask`, are kept (a later check decides again).
   */
  restore(interruptions: readonly { rawItem: unknown }[], tools: ReadonlySet<string>): void {
    for (const item of interruptions) {
      const raw = item.rawItem as { type?: unknown; name?: unknown; callId?: unknown; arguments?: unknown };
      if (raw.type !== 'function_call' || typeof raw.callId !== 'string' || typeof raw.name !== 'string')
        continue;
      if (!tools.has(raw.name) || this.#calls.has(raw.callId)) continue;
      this.#calls.set(raw.callId, { tool: raw.name, parameters: parsedArguments(raw.arguments) });
    }
  }

  /** True when the call is waiting for an answer here (its ask was put, and recorded). */
  has(callId: string): boolean {
    return this.#calls.has(callId);
  }

  /** Forgets a call that is running (it was approved). */
  forget(callId: string): void {
    this.#calls.delete(callId);
  }

  /**
   * Records the rejection of one asked call, once: the gate gets the call with the rejection as
   * its external decision (the tool never runs). Undefined when the call is not one of these, or
   * when policy no longer says `ask` for it (then nothing may run it, and the gate is not asked).
   * `handle` is the one the set's calls go through in this run (acting for another agent, or its own).
   */
  async rejected(
    runContext: RunContext,
    callId: string,
    handle: AgentHandle = this.#handle,
  ): Promise<ToolResult | undefined> {
    const asked = this.#calls.get(callId);
    if (asked === undefined) return undefined;
    this.#calls.delete(callId);
    const check = await handle.check(asked.tool, asked.parameters);
    if (check.status !== 'ask') return undefined;
    const reason = runContext.getRejectionMessage(asked.tool, callId);
    return this.#lane.run(() =>
      handle.callTool(asked.tool, asked.parameters, {
        decision: { approved: false, by: this.#by, ...(reason ? { reason } : {}) },
      }),
    );
  }

  /**
   * Records every asked call Agents now holds as rejected. Agents calls the error formatter for a
   * rejection only when `state.reject` was given no message; this sweep, run when Agents next asks
   * which tools are enabled, records the others.
   */
  async sweep(runContext: RunContext, handle: AgentHandle = this.#handle): Promise<void> {
    for (const [callId, asked] of [...this.#calls]) {
      if (runContext.isToolApproved({ toolName: asked.tool, callId }) === false)
        await this.rejected(runContext, callId, handle);
    }
  }
}
