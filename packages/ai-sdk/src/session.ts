import type { AgentHandle } from '@toolgate/core';
import type { CallQueue } from './call-queue.js';

/** What the tools of one {@link aiSdkTools} call share. */
export interface GateSession {
  handle: AgentHandle;
  queue: CallQueue;
  approvedBy: string;
  /** The tool call ids whose rejected approval is already recorded. */
  denialsRecorded: Set<string>;
}

/** The session of each tool set {@link aiSdkTools} made, for {@link aiSdkLoopOptions}. */
export const sessions = new WeakMap<object, GateSession>();
