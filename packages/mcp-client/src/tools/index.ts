/**
 * A server's tools: the list read and collected under limits, each tool read, named, fingerprinted
 * and approved, changes noticed, results mapped back, and the policy subjects of a remote call.
 *
 * @module
 */
export { fingerprint, type ToolShape } from './fingerprint.js';
export { mapResult } from './map-result.js';
export { outputSchemasNotValidated } from './output-validator.js';
export type { ToolExtras } from './read-tool.js';
export { RemoteToolFailure } from './remote-error.js';
export type { ToolChange, ToolChangeRecorder } from './tool-change.js';
export type { WithheldTool } from './tool-list.js';
