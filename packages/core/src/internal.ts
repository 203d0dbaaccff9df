/**
 * @toolgate/core/internal: what toolgate's own packages use of each other — caps and JSON helpers,
 * remote-schema checks, prompt cleaning, error wording, record shapes, the replay seam. Not
 * semver-promised: it changes with the packages that use it.
 *
 * @module
 */

export type { CallCheck } from './call-check.js';
export {
  type AudioPart,
  base64Bytes,
  checkToolOutput,
  type EmbeddedResourcePart,
  type ImagePart,
  isToolOutput,
  type ResourceLinkPart,
  type TextPart,
} from './content.js';
export { capContent, capToolOutput, defaultMaxContentBytes, type OutputCaps } from './content-caps.js';
export type {
  Authorization,
  ExternalDecision,
  JudgeOptions,
  ToolProgress,
  ToolProgressEvent,
} from './context.js';
export { toolgateErrorCodes } from './errors.js';
export type { ApproverAnswer, ToolRequest } from './gate-options.js';
export {
  capJsonText,
  capOutput,
  capText,
  jsonTextLength,
  toJsonValue,
  truncationMarker,
} from './json.js';
export { type LinearPattern, linearPattern } from './linear-pattern.js';
export { modelJson } from './model-json.js';
export {
  headerValue,
  type ParamHeader,
  type ParamHeaderScan,
  paramHeaderMismatch,
  paramHeaders,
  scanParamHeaders,
} from './param-headers.js';
export { javascriptWhitespace, type PatternToken, patternTokens } from './pattern-tokens.js';
export type { PendingAsk } from './pipeline/asked.js';
export { defaultLimits } from './pipeline/cap.js';
export type { AnswerSource } from './pipeline/decide.js';
export type {
  CallObservation,
  ObservedCall,
  ObservedEnding,
  RecordReceipt,
} from './pipeline/observe.js';
export type { Judged } from './pipeline/record.js';
export type { RecordedDecision, Recording, RecordingQuery } from './pipeline/recording.js';
export { plainSchema } from './plain-schema.js';
export type { Decision } from './policy.js';
export { policyDocumentSchema } from './policy-document.js';
export { promptDescription, promptText, promptTextLimits } from './prompt-text.js';
export {
  type AgentDerivedRecord,
  type LineageVia,
  noopRecorder,
  type PolicyAskedRecord,
  type PolicyDecidedRecord,
  type ToolCalledRecord,
  type ToolChangedRecord,
  type ToolErrorData,
  type ToolReturnedRecord,
} from './recorder.js';
export { describeTool, type RegistryCallOptions, type ResolvedTool } from './registry.js';
export {
  type RemoteSchemaValidator,
  remoteSchemaFallback,
  remoteSchemaValidator,
} from './remote-schema.js';
export { checkRemoteSchema, type RemoteSchemaFacts, remoteSchemaLimits } from './remote-schema-check.js';
export { toolNamePattern } from './tool.js';
export { formatIssue, formatIssuePath, formatIssues, type ZodIssue } from './zod-issues.js';
