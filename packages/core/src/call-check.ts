import type { PolicyRequest } from './policy.js';
import type { ToolErrorData } from './recorder.js';

/**
 * The gate's pre-flight verdict on a call, from {@link AgentHandle.check}: grant, resolution,
 * validation and policy, without running the tool, asking the approver or recording anything.
 * `ask` means an approval is needed: pass it with {@link CallOptions.decision} (a framework's
 * approval UI) or let the gate's approver decide. `refused` carries the error the call would
 * return (CAPABILITY_VIOLATION, UNKNOWN_TOOL, INVALID_PARAMETERS, PERMISSION_DENIED, or a
 * resolver's failure: a check that cannot be completed is never `allowed`).
 */
export type CallCheck =
  | { status: 'allowed'; tool: string; reason: string }
  | { status: 'ask'; tool: string; reason: string; request: PolicyRequest }
  | { status: 'refused'; tool: string; error: ToolErrorData };
