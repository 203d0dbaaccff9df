/**
 * @toolgate/core: typed tools, grants enforced by the runtime, the policy gate and the call
 * pipeline. Touches no OS and knows nothing of MCP. (What toolgate's own packages share is in
 * `@toolgate/core/internal`, which is not semver-promised; the command-line helpers every toolgate
 * command reads its arguments with are `@toolgate/core/command-line`.)
 *
 * @module
 */

export { AgentHandle } from './agent-handle.js';
export { type ContentPart, type ToolOutput, toolResult } from './content.js';
export type { CallOptions, ToolContext } from './context.js';
export { CapabilityViolation, messageOf, ToolgateError, type ToolgateErrorCode } from './errors.js';
export { ToolGate } from './gate.js';
export type { ApprovalRequest, Approver, GateCallOptions, ToolGateOptions } from './gate-options.js';
export type { JsonObject, JsonValue } from './json.js';
export { type Manifest, manifestSchema, parseManifest } from './manifest.js';
export type { Limits } from './pipeline/cap.js';
export { type Answer, decisionSentence } from './pipeline/decide.js';
export { exactGrant, type Grant, patternGrant } from './pipeline/grant.js';
export type { CallObserver } from './pipeline/observe.js';
export {
  type Policy,
  type PolicyDocument,
  type PolicyRequest,
  type PolicyRule,
  type PolicySubject,
  type PolicyVerdict,
  RulePolicy,
} from './policy.js';
export { parsePolicy, parsePolicyText } from './policy-document.js';
export { layeredPolicy, type PolicyLayer } from './policy-layers.js';
export type { Recorder } from './recorder.js';
export { ToolRegistry } from './registry.js';
export { rememberApprovals } from './remembered-approvals.js';
export type { ToolResolver } from './resolver.js';
export { defineTool, type JsonSchema, type Tool, type ToolDefinition, type ToolDescription } from './tool.js';
export type { ToolCall, ToolResult } from './tool-result.js';
