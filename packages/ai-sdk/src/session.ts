import type { AgentHandle } from '@toolgate/core';
import type { CallQueue } from './call-queue.js';

/** What the tools of one {@link aiSdkTools} call share. */
export interface GateSession {
  handle: AgentHandle;
  queue: CallQueue;
  /** Who an AI SDK approval answer is recorded as coming from. */
  approvedBy: string;
  /** Who a denial by the app's own `toolApproval` is recorded as coming from. */
  appApprovedBy: string;
  /** True when the gate's `ask` becomes an AI SDK tool approval (`approvals: 'ai-sdk'`). */
  askTheSdk: boolean;
  /** The names of the gated tools. */
  gated: ReadonlySet<string>;
  /** The tool call ids whose rejected approval is already recorded. */
  denialsRecorded: Set<string>;
  /** The tool call ids whose pending ask is already recorded (`policy.asked`). */
  askedRecorded: Set<string>;
}

/** The session of each tool set {@link aiSdkTools} made, and of each tool in it, for {@link aiSdkLoopOptions}. */
export const sessions = new WeakMap<object, GateSession>();

/** The session of a tool set, or of any gated tool in it (a set mixing gated tools with native ones). */
export function sessionOf(tools: object): GateSession | undefined {
  const own = sessions.get(tools);
  if (own !== undefined) return own;
  for (const value of Object.values(tools)) {
    if (typeof value !== 'object' || value === null) continue;
    const session = sessions.get(value);
    if (session !== undefined) return session;
  }
  return undefined;
}
