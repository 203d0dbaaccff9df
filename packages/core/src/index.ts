/**
 * @toolgate/core: typed tools, grants enforced by the runtime, the policy gate and the call
 * pipeline. Touches no OS and knows nothing of MCP.
 *
 * @module
 */

export { AgentHandle } from './agent-handle.js';
export type { CallCheck } from './call-check.js';
export {
  type AudioPart,
  base64Bytes,
  type ContentPart,
  checkToolOutput,
  type EmbeddedResourcePart,
  type ImagePart,
  isToolOutput,
  type ResourceLinkPart,
  type TextPart,
  type ToolOutput,
  toolResult,
} from './content.js';
export { capContent, capToolOutput, defaultMaxContentBytes, type OutputCaps } from './content-caps.js';
export type {
  CallOptions,
  ExternalDecision,
  ToolContext,
  ToolProgress,
  ToolProgressEvent,
} from './context.js';
export { joinDashValues, type OptionShape } from './dash-values.js';
export {
  CapabilityViolation,
  messageOf,
  ToolgateError,
  type ToolgateErrorCode,
  toolgateErrorCodes,
} from './errors.js';
export { type GateCallOptions, ToolGate, type ToolRequest } from './gate.js';
export type { ApprovalRequest, Approver, ApproverAnswer, ToolGateOptions } from './gate-options.js';
export {
  capJsonText,
  capOutput,
  capText,
  type JsonObject,
  type JsonValue,
  jsonTextLength,
  toJsonValue,
  truncationMarker,
} from './json.js';
export { type LinearPattern, linearPattern } from './linear-pattern.js';
export { type Manifest, manifestSchema, parseManifest } from './manifest.js';
export { defaultLimits, type Limits } from './pipeline/cap.js';
export { type Answer, type AnswerSource, decisionSentence } from './pipeline/decide.js';
export { exactGrant, type Grant, patternGrant } from './pipeline/grant.js';
export type { Recording, RecordingQuery } from './pipeline/recording.js';
export { plainSchema } from './plain-schema.js';
export {
  type Decision,
  type Policy,
  type PolicyDocument,
  type PolicyRequest,
  type PolicyRule,
  type PolicySubject,
  type PolicyVerdict,
  policies,
  RulePolicy,
} from './policy.js';
export { parsePolicy, parsePolicyText, policyDocumentSchema } from './policy-document.js';
export { promptDescription, promptText, promptTextLimits } from './prompt-text.js';
export {
  type AgentDerivedRecord,
  noopRecorder,
  type PolicyDecidedRecord,
  type Recorder,
  type ToolCalledRecord,
  type ToolChangedRecord,
  type ToolErrorData,
  type ToolReturnedRecord,
} from './recorder.js';
export { describeTool, type RegistryCallOptions, type ResolvedTool, ToolRegistry } from './registry.js';
export {
  type RemoteSchemaValidator,
  remoteSchemaFallback,
  remoteSchemaValidator,
} from './remote-schema.js';
export { checkRemoteSchema, type RemoteSchemaFacts, remoteSchemaLimits } from './remote-schema-check.js';
export type { ToolResolver } from './resolver.js';
export {
  defineTool,
  type JsonSchema,
  type Tool,
  type ToolDefinition,
  type ToolDescription,
  toolNamePattern,
} from './tool.js';
export type { ToolCall, ToolResult } from './tool-result.js';
export { formatIssue, formatIssuePath, formatIssues, type ZodIssue } from './zod-issues.js';
